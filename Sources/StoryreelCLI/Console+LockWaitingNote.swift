extension Console {
    /// The one line printed when another run holds the lock on `folder` (`render`, `ingest`,
    /// `thumbnail --out-dir`, `cube --frames-dir`): on stderr even with `--json`, silenced only by
    /// `--quiet`, with the holder's pid when it is known.
    func lockWaitingNote(_ folder: String) -> @Sendable (Int32?) -> Void {
        { holder in
            let pid = holder.map { " (held by pid \($0))" } ?? ""
            status("storyreel: waiting for the lock on \(Console.escaped(folder))\(pid)…\n")
        }
    }
}
