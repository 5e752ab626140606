#include "cli_interrupt.h"

#include <csignal>

namespace strata::cli {

namespace {

CancelToken interrupt;

extern "C" void onInterrupt(int) {
    interrupt.cancel();  // an atomic store: safe in a signal handler
}

}  // namespace

const CancelToken& commandInterrupt() {
    return interrupt;
}

InterruptScope::InterruptScope()
    : previousInt_(std::signal(SIGINT, onInterrupt)),
      previousTerm_(std::signal(SIGTERM, onInterrupt)),
      reads_(&interrupt) {}

InterruptScope::~InterruptScope() {
    std::signal(SIGINT, previousInt_);
    std::signal(SIGTERM, previousTerm_);
}

}  // namespace strata::cli
