#include "block_cache.h"

namespace strata {

Block BlockCache::find(std::uint64_t object, std::uint64_t index) {
    std::lock_guard lock(mutex_);
    const auto it = index_.find({object, index});
    if (it == index_.end()) {
        return nullptr;
    }
    lru_.splice(lru_.begin(), lru_, it->second);
    return it->second->block;
}

void BlockCache::insert(std::uint64_t object, std::uint64_t index, Block block) {
    if (!block || block->size() > maxBytes_) {
        return;
    }
    std::lock_guard lock(mutex_);
    const Key key{object, index};
    if (const auto it = index_.find(key); it != index_.end()) {
        bytes_ -= it->second->block->size();
        lru_.erase(it->second);
        index_.erase(it);
    }
    bytes_ += block->size();
    lru_.push_front({key, std::move(block)});
    index_.emplace(key, lru_.begin());
    evictLocked();
}

void BlockCache::erase(std::uint64_t object) {
    std::lock_guard lock(mutex_);
    for (auto it = lru_.begin(); it != lru_.end();) {
        if (it->key.object == object) {
            bytes_ -= it->block->size();
            index_.erase(it->key);
            it = lru_.erase(it);
        } else {
            ++it;
        }
    }
}

std::size_t BlockCache::bytes() const {
    std::lock_guard lock(mutex_);
    return bytes_;
}

std::size_t BlockCache::blocks() const {
    std::lock_guard lock(mutex_);
    return lru_.size();
}

void BlockCache::evictLocked() {
    while (bytes_ > maxBytes_ && !lru_.empty()) {
        const Entry& last = lru_.back();
        bytes_ -= last.block->size();
        index_.erase(last.key);
        lru_.pop_back();
    }
}

std::shared_ptr<std::vector<std::uint8_t>> BlockBuffers::take(std::size_t size) {
    std::unique_ptr<std::vector<std::uint8_t>> buffer;
    {
        std::lock_guard lock(mutex_);
        for (auto it = free_.rbegin(); it != free_.rend(); ++it) {
            if ((*it)->capacity() >= size) {
                buffer = std::move(*it);
                free_.erase(std::next(it).base());
                freeBytes_ -= buffer->capacity();
                break;
            }
        }
    }
    if (buffer) {
        buffer->resize(size);  // within its capacity: no allocation
    } else {
        buffer = std::make_unique<std::vector<std::uint8_t>>(size);
    }
    return {buffer.release(),
            [self = shared_from_this()](std::vector<std::uint8_t>* b) { self->give(b); }};
}

void BlockBuffers::give(std::vector<std::uint8_t>* buffer) {
    std::unique_ptr<std::vector<std::uint8_t>> owned(buffer);
    std::lock_guard lock(mutex_);
    if (freeBytes_ + owned->capacity() <= maxBytes_) {
        freeBytes_ += owned->capacity();
        free_.push_back(std::move(owned));
    }
}

std::size_t BlockBuffers::freeBytes() const {
    std::lock_guard lock(mutex_);
    return freeBytes_;
}

}  // namespace strata
