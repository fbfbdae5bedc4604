/// Where the worker stands after a request, whatever it asked: said with every reply
/// (``WorkerReply/status``), each part only when it has something to say. On the wire
/// its fields sit beside the answer's in the reply's object.
package struct WorkerStatus: Codable, Sendable, Equatable {
    /// Faults that fired while serving the request and were not sent as events.
    package var firings: [FaultFiring]?
    /// Where every armed fault stands after the request.
    package var faults: [FaultStanding]?
    /// Writes and syncs of the store's files so far in this worker, while write tracking
    /// is on (what a crash sweep enumerates): `trackedWrites` and `trackedSyncs`.
    package var tracked: TrackedIO?
    /// While points are counted (``WorkerOperation/countPoints``): every fault point this
    /// worker has hit so far, sorted.
    package var pointsHit: [String]?
    /// While storage faults are armed: which seam saw the app's files (what tells a
    /// fault no seam reaches from a fault whose moment did not come).
    package var reach: StorageReach?
    /// The durability settings the app gave its store (through the fault VFS), once it
    /// set any: what names the cause of a commit a power cut undid.
    package var storeSettings: StoreSettings?
    /// What the seams saw the app do since the last reply (``SeamCall``); nil for nothing.
    package var calls: [SeamCall]?

    package init(firings: [FaultFiring]? = nil, faults: [FaultStanding]? = nil, tracked: TrackedIO? = nil,
                 pointsHit: [String]? = nil, reach: StorageReach? = nil, storeSettings: StoreSettings? = nil,
                 calls: [SeamCall]? = nil) {
        self.firings = firings
        self.faults = faults
        self.tracked = tracked
        self.pointsHit = pointsHit
        self.reach = reach
        self.storeSettings = storeSettings
        self.calls = calls
    }

    private enum Field: String, CodingKey { case firings, faults, trackedWrites, trackedSyncs, pointsHit, reach, storeSettings, calls }

    /// Reads the status from the reply's object; tracked counts need both of their fields.
    package init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Field.self)
        firings = try fields.decodeIfPresent([FaultFiring].self, forKey: .firings)
        faults = try fields.decodeIfPresent([FaultStanding].self, forKey: .faults)
        let writes = try fields.decodeIfPresent(Int.self, forKey: .trackedWrites)
        let syncs = try fields.decodeIfPresent(Int.self, forKey: .trackedSyncs)
        if let writes, let syncs { tracked = TrackedIO(writes: writes, syncs: syncs) }
        pointsHit = try fields.decodeIfPresent([String].self, forKey: .pointsHit)
        reach = try fields.decodeIfPresent(StorageReach.self, forKey: .reach)
        storeSettings = try fields.decodeIfPresent(StoreSettings.self, forKey: .storeSettings)
        calls = try fields.decodeIfPresent([SeamCall].self, forKey: .calls)
    }

    /// Writes the status into the reply's object, beside the answer's fields.
    package func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Field.self)
        try fields.encodeIfPresent(firings, forKey: .firings)
        try fields.encodeIfPresent(faults, forKey: .faults)
        try fields.encodeIfPresent(tracked?.writes, forKey: .trackedWrites)
        try fields.encodeIfPresent(tracked?.syncs, forKey: .trackedSyncs)
        try fields.encodeIfPresent(pointsHit, forKey: .pointsHit)
        try fields.encodeIfPresent(reach, forKey: .reach)
        try fields.encodeIfPresent(storeSettings, forKey: .storeSettings)
        try fields.encodeIfPresent(calls, forKey: .calls)
    }
}

/// Writes and syncs of the store's files the crash simulator counted in a run of the app.
package struct TrackedIO: Sendable, Equatable {
    package var writes: Int
    package var syncs: Int

    package init(writes: Int, syncs: Int) {
        self.writes = writes
        self.syncs = syncs
    }
}
