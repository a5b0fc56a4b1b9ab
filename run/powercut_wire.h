// The host under test's side of the witness connection, shared by `powercut write` and `verify`
// (run/powercut.h): connecting, and reading lines until an exchange is complete, within an idle
// timeout and an overall deadline, stopping at once on a signal.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "platform/platform.h"
#include "platform/tcp.h"

namespace durprobe::run {

// Reads lines from socket until line_done says the exchange is complete; an Error when the peer
// closes first, sends nothing for timeout_ns, sends a line over the protocol's limit, or is not
// done by deadline (absolute, NowNanos; 0: none: a witness that trickles or floods its answer is
// abandoned there); Interrupted when a signal arrives (seen within 100 ms whatever the peer does).
Status ReadWitnessLines(platform::Platform& platform, int socket, std::uint64_t timeout_ns,
                        const std::string& witness,
                        const std::function<Result<bool>(const std::string&)>& line_done,
                        std::uint64_t deadline = 0);

// A connection to the witness, or an Error "witness ADDR unreachable: ...".
Result<platform::FileHandle> ConnectWitness(platform::Platform& platform,
                                            const platform::Endpoint& e, std::uint64_t timeout_ns);

}  // namespace durprobe::run
