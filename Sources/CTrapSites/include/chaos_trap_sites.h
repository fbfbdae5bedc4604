// A trap whose backtrace the controller already holds, ended at once: no backtracer is
// started for it.
//
// The Swift runtime answers a trap by starting `swift-backtrace`, which suspends the
// process and unwinds it (tens of milliseconds of CPU, more of wall time). A hunt traps
// at the same few instructions hundreds of times. The controller names each trap's
// frames once (TrapSymbolizer) and gives each later worker the offsets of the trapping
// instructions it has named; a trap at one of them writes one line to stderr and ends
// the process by the same signal, and the controller shows the backtrace it holds.
//
//   chaos: trap at a known site: signal 4 at 0x2f1a3e in /path/to/the/executable
#ifndef CHAOS_TRAP_SITES_H
#define CHAOS_TRAP_SITES_H

#ifdef __cplusplus
extern "C" {
#endif

/// Installs the handler for SIGILL and SIGTRAP in front of the one in place (the Swift
/// runtime's), which it calls for any other trap. `keys` is a comma-separated list of
/// hexadecimal keys (may be empty). Returns the number of keys read, or -1 when the
/// handler cannot be installed (another architecture).
int chaos_trap_sites_install(const char *keys);

/// Whether a thread's trap is being handled: the first trap of the process, which ends
/// it. A thread that traps meanwhile waits for that end (its trap is not the cause).
int chaos_trap_sites_handling(void);

/// The lines' starts, for the controller's reader.
#define CHAOS_TRAP_SITES_MARKER "chaos: trap at a known site: "
#define CHAOS_TRAP_KEY_MARKER "chaos: trap: "

#ifdef __cplusplus
}
#endif

#endif
