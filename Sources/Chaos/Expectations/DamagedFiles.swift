import Foundation

/// A file Chaos damaged while the app was closed, as the oracles of what the user was
/// promised need it: what bytes the damage left (so that the end of the case can tell
/// whether the app kept them somewhere: set aside, never destroyed), whether another of
/// the app's declared files still held data then (a good copy to come back from), and
/// what the app's next launch made of it.
package struct FileDamageMark: Sendable, Equatable {
    /// The logical file damaged (`store`, `backup`).
    package var file: String
    /// The scenario step that damaged it, from 1.
    package var step: Int
    /// The fault kind (`corrupt-file`, `delete-file`, `read-only`, `replace-file`).
    package var kind: String
    /// Digests of the damaged file's 4 KiB chunks (all-zero chunks left out): the bytes
    /// the app must not destroy. Empty when the damage left no bytes (a delete).
    package var chunks: Set<UInt64>
    /// Another declared file (not the store's own journal or shared memory) held data
    /// when the damage was done: a copy the app could come back from.
    package var goodCopy: Bool
    /// The damage stays for good whatever the app does (a file made read-only): no
    /// healing to hold the app to.
    package var permanent: Bool
    /// The next launch reported another mode than `persistent`, or told the user of a
    /// problem: the app could not read the file as it was (nil: no launch since).
    package var noticed: Bool?
    /// That launch reported the ``Health/Mode/discarded`` mode: it told the user the
    /// damaged data is gone.
    package var toldGone = false
    /// The damaged file's device and inode: found under another path at the end, it was
    /// renamed aside (nil: a folder, or not a regular file).
    package var identity: FileIdentity?
    /// The damaged file's own path and its journals' (`-wal`, `-shm`, `-journal`): a file
    /// found there at the end is not one set aside, whatever its inode.
    package var ownPaths: Set<String> = []
    /// At the end of the case, the damaged file was found under another path (renamed
    /// aside), or at least half of ``chunks`` were found in the files of
    /// the app's data folder (nil: not looked at).
    package var kept: Bool?

    package init(file: String, step: Int, kind: String, chunks: Set<UInt64>, goodCopy: Bool, permanent: Bool) {
        self.file = file
        self.step = step
        self.kind = kind
        self.chunks = chunks
        self.goodCopy = goodCopy
        self.permanent = permanent
    }
}

/// A regular file's device and inode.
package struct FileIdentity: Sendable, Hashable {
    package var device: UInt64
    package var inode: UInt64
}
