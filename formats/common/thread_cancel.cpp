#include "thread_cancel.h"

namespace strata {

namespace {

thread_local const CancelToken* currentToken = nullptr;

}  // namespace

const CancelToken* threadCancelToken() {
    return currentToken;
}

ThreadCancelScope::ThreadCancelScope(const CancelToken* token) : previous_(currentToken) {
    currentToken = token;
}

ThreadCancelScope::~ThreadCancelScope() {
    currentToken = previous_;
}

}  // namespace strata
