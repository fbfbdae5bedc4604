import FaultPoints
import Foundation

// chaos-bench-points: what a fault point costs, in the build it was compiled in.
//
// `make bench` builds it twice, with the `FaultPointsEnabled` trait (the default) and
// without it (`--disable-default-traits`), and `chaos-bench` runs both. Each run
// interleaves the bare loop and the loop with a point, so the difference is measured
// in one process, on the same warm core. Output, one line a figure, for chaos-bench:
//
//     trait on
//     bare 1.00 0.99 1.01 ...          ns per iteration, one value a round
//     point 1.97 1.96 ...
//     armed-elsewhere 3.1 3.0 ...      (only with the trait: a point is armed elsewhere)
//     scope-elsewhere 4.2 4.1 ...      (only with the trait: a scope is open in another task)
//     fiu-point / fiu-armed-elsewhere  libfiu's fiu_fail in the same loop, when libfiu0 is there

let rounds = max(1, Int(CommandLine.arguments.dropFirst().first ?? "") ?? 5)
let iterations = 20_000_000
let benchPoint = FaultPoint("bench/loop/hit")

/// A step the optimiser cannot fold into a closed form: a 64-bit LCG chain.
@inline(__always)
func step(_ state: UInt64, _ index: Int) -> UInt64 {
    state &* 6_364_136_223_846_793_005 &+ UInt64(truncatingIfNeeded: index) | 1
}

@inline(never)
func bare(_ iterations: Int) -> UInt64 {
    var state: UInt64 = 1
    for index in 0..<iterations { state = step(state, index) }
    return state
}

@inline(never)
func withPoint(_ iterations: Int) -> UInt64 {
    var state: UInt64 = 1
    for index in 0..<iterations {
        try? benchPoint.hit()
        state = step(state, index)
    }
    return state
}

/// Nanoseconds per iteration of `body`.
func nanoseconds(_ iterations: Int, _ body: () -> UInt64) -> (Double, UInt64) {
    let clock = ContinuousClock()
    let start = clock.now
    let result = body()
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (seconds * 1e9 / Double(iterations), result)
}

var sink: UInt64 = 0
var bareValues: [Double] = []
var pointValues: [Double] = []
FaultRegistry.shared.reset()
for round in 0..<rounds {
    // a, b, b, a, ...: neither side always goes first.
    let order: [Bool] = round % 2 == 0 ? [false, true] : [true, false]
    for withThePoint in order {
        let (ns, value) = nanoseconds(iterations) { withThePoint ? withPoint(iterations) : bare(iterations) }
        sink &+= value
        if withThePoint { pointValues.append(ns) } else { bareValues.append(ns) }
    }
}

// Whether hit() does anything in this build: arm the point and see if it fires.
FaultRegistry.shared.arm(benchPoint, always: .fail(message: "probe"))
let traitOn = (try? benchPoint.hit()) == nil
FaultRegistry.shared.reset()

print("trait \(traitOn ? "on" : "off")")
print("bare " + bareValues.map { String(format: "%.3f", $0) }.joined(separator: " "))
print("point " + pointValues.map { String(format: "%.3f", $0) }.joined(separator: " "))
if traitOn {
    /// ns per hit of `benchPoint`, `rounds` times.
    func hits() -> [Double] {
        let count = 2_000_000
        return (0..<rounds).map { _ in
            nanoseconds(count) {
                for _ in 0..<count { try? benchPoint.hit() }
                return 0
            }.0
        }
    }
    FaultRegistry.shared.arm("bench/other/point") { _ in nil }
    print("armed-elsewhere " + hits().map { String(format: "%.2f", $0) }.joined(separator: " "))
    FaultRegistry.shared.reset()

    // A scope open in another thread's task: every hit asks its own task for one.
    let opened = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    Thread {
        withFaults([.throw(at: "bench/scoped/point")]) {
            opened.signal()
            release.wait()
        }
    }.start()
    opened.wait()
    print("scope-elsewhere " + hits().map { String(format: "%.2f", $0) }.joined(separator: " "))
    release.signal()
}

// libfiu's fiu_fail, side by side (Debian's libfiu0, loaded at run time): the peer.
typealias FiuInit = @convention(c) (UInt32) -> Int32
typealias FiuFail = @convention(c) (UnsafePointer<CChar>) -> Int32
typealias FiuEnable = @convention(c) (UnsafePointer<CChar>, Int32, UnsafeMutableRawPointer?, UInt32) -> Int32
if let fiu = dlopen("libfiu.so.0", RTLD_NOW), let initialise = dlsym(fiu, "fiu_init"), let failSymbol = dlsym(fiu, "fiu_fail"),
   let enableSymbol = dlsym(fiu, "fiu_enable") {
    _ = unsafeBitCast(initialise, to: FiuInit.self)(0)
    let fail = unsafeBitCast(failSymbol, to: FiuFail.self)
    @inline(never)
    func fiuLoop(_ count: Int) -> UInt64 {
        var state: UInt64 = 1
        for index in 0..<count {
            state &+= UInt64(fail("bench/loop/hit"))
            state = step(state, index)
        }
        return state
    }
    var fiuPoint: [Double] = []
    let count = 2_000_000
    for _ in 0..<rounds {
        let (ns, value) = nanoseconds(count) { fiuLoop(count) }
        sink &+= value
        fiuPoint.append(ns)
    }
    // The same loop as `bare` with fiu_fail in it: per hit, less the bare loop above.
    print("fiu-point " + fiuPoint.map { String(format: "%.3f", $0) }.joined(separator: " "))
    _ = unsafeBitCast(enableSymbol, to: FiuEnable.self)("bench/other/point", 1, nil, 0)
    let armed = (0..<rounds).map { _ in
        let (ns, value) = nanoseconds(count) { fiuLoop(count) }
        sink &+= value
        return ns
    }
    print("fiu-armed-elsewhere " + armed.map { String(format: "%.2f", $0) }.joined(separator: " "))
}
if sink == 42 { print("") }
