// A byte-bounded LRU cache of fetched blocks, shared by every remote source of a session. A
// block handed out stays valid for as long as its holder keeps the pointer (views pin them),
// so eviction only drops the cache's own reference.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace strata {

using Block = std::shared_ptr<const std::vector<std::uint8_t>>;

class BlockCache {
public:
    explicit BlockCache(std::size_t maxBytes) : maxBytes_(maxBytes) {}

    // The block, marked most recently used; null when absent.
    Block find(std::uint64_t object, std::uint64_t index);
    // Adds or replaces, then evicts least recently used blocks beyond the bound. A block larger
    // than the whole bound is not kept.
    void insert(std::uint64_t object, std::uint64_t index, Block block);
    // Drops every block of one object.
    void erase(std::uint64_t object);

    std::size_t bytes() const;
    std::size_t maxBytes() const { return maxBytes_; }
    std::size_t blocks() const;

private:
    struct Key {
        std::uint64_t object;
        std::uint64_t index;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const {
            return std::hash<std::uint64_t>()(k.object * 0x9E3779B97F4A7C15ULL ^ k.index);
        }
    };
    struct Entry {
        Key key;
        Block block;
    };

    void evictLocked();

    const std::size_t maxBytes_;
    mutable std::mutex mutex_;
    std::list<Entry> lru_;  // front = most recent
    std::unordered_map<Key, std::list<Entry>::iterator, KeyHash> index_;
    std::size_t bytes_ = 0;
};

// Memory for blocks, handed back when the last holder of a block drops it and lent again for
// the next fetch. A scan through a file far larger than the cache otherwise gets a fresh
// allocation for every block it fetches, which the kernel maps and zeroes page by page: that
// cost more than receiving the bytes. Keeps at most maxBytes of unused buffers.
class BlockBuffers : public std::enable_shared_from_this<BlockBuffers> {
public:
    explicit BlockBuffers(std::size_t maxBytes) : maxBytes_(maxBytes) {}

    // A buffer of `size` bytes whose contents are unspecified (to be overwritten); its memory
    // comes back here when the last pointer to it is dropped.
    std::shared_ptr<std::vector<std::uint8_t>> take(std::size_t size);

    std::size_t freeBytes() const;

private:
    void give(std::vector<std::uint8_t>* buffer);

    const std::size_t maxBytes_;
    mutable std::mutex mutex_;
    std::vector<std::unique_ptr<std::vector<std::uint8_t>>> free_;
    std::size_t freeBytes_ = 0;
};

}  // namespace strata
