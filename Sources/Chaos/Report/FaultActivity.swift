import ChaosTarget

/// What one armed fault did over a case: how many of its operations it saw and how
/// many times it fired. One per fault step (and per power loss), in arming order.
///
/// ```json
/// { "id" : "step-6", "kind" : "throw", "label" : "throw store/favorites/fetch",
///   "hits" : 4, "fired" : 1, "writes" : null, "syncs" : null }
/// ```
package struct FaultActivity: Codable, Sendable, Equatable {
    /// `step-N`, the scenario step that armed it, or `trial` for a sweep's own fault.
    package var id: String
    /// The scenario step that armed it (from 1); nil for a sweep's own fault.
    package var step: Int?
    package var kind: String
    package var label: String
    /// Operations the fault counted (point hits, VFS calls it matched, connections);
    /// nil where its seam does not count them (file damage, the clock).
    @ExplicitNull package var hits: Int?
    /// Times it fired (a file fault: 1 once applied).
    package var fired: Int
    /// A power loss: writes and syncs of the app's files while it was armed.
    @ExplicitNull package var writes: Int?
    @ExplicitNull package var syncs: Int?
    /// Whether the fault reached what the app reads (nil: not measured); a case whose
    /// fault had none is `inconclusive`, not `passed`.
    @ExplicitNull package var hadEffect: Bool?
    /// What it did, measured: `failed 3 of 12 writes of app.sqlite-wal`, `no effect: the
    /// point store/notes/save was never reached`.
    @ExplicitNull package var effect: String?
    /// A storage fault in the app's process: the seam that carried it out (`vfs`, `libc`).
    package var seam: String?

    package init(id: String, step: Int? = nil, kind: String, label: String, hits: Int? = nil, fired: Int = 0,
                writes: Int? = nil, syncs: Int? = nil) {
        self.id = id
        self.step = step
        self.kind = kind
        self.label = label
        self.hits = hits
        self.fired = fired
        self.writes = writes
        self.syncs = syncs
    }

}
