import Dispatch
import Foundation
import Synchronization

/// Runs a ``VideoEncoder`` and the ``PacketSink`` it feeds (the clip's ``OutputFile``, or a
/// ``PacketBuffer``) on a thread of their own, so the caller can render and convert the next
/// picture while the current one is encoded.
///
/// Pictures alternate between two slots: the caller fills a slot only after the encoder thread
/// has sent that slot's previous picture (x264 and x265 copy a picture when it is sent).
final class EncoderThread: @unchecked Sendable {
    // `encoder`, `output` and `packet` are used only on `queue`, one job at a time; `finish`
    // drains the queue before it touches them. `failure` is a ``Mutex``. Those two rules are
    // what make this class Sendable.
    private let queue = DispatchQueue(label: "storyreel.encoder")
    private let encoder: VideoEncoder
    private let output: PacketSink
    private let packet: Packet
    private let slotsFree: [DispatchSemaphore]
    private let failure = Mutex<(any Error)?>(nil)
    /// Bytes of the packets handed to the sink; read it after ``finish()``.
    private(set) var byteCount = 0

    init(encoder: VideoEncoder, output: PacketSink) throws {
        self.encoder = encoder
        self.output = output
        packet = try Packet()
        // Each slot's semaphore is made at 0 and signalled up to 1. libdispatch traps (SIGILL) when
        // a semaphore is freed holding less than it was made with, and a failed encode leaves a
        // slot taken for good: `acquire` waits, then rethrows the failure instead of submitting.
        slotsFree = (0..<2).map { _ in
            let semaphore = DispatchSemaphore(value: 0)
            semaphore.signal()
            return semaphore
        }
    }

    /// Waits until `slot` (0 or 1) may be refilled, and rethrows an earlier encoding error.
    func acquire(slot: Int) throws {
        slotsFree[slot].wait()
        try rethrowFailure()
    }

    /// Encodes `picture` (filled in `slot`) on the encoder thread; the slot is free again once
    /// the picture has been sent.
    func submit(_ picture: Frame, slot: Int) {
        let job = UncheckedFrame(frame: picture)
        queue.async {
            defer { self.slotsFree[slot].signal() }
            guard self.currentFailure == nil else { return }
            do {
                try self.encode(job.frame)
            } catch {
                self.record(error)
            }
        }
    }

    /// Waits until every submitted picture has been handled.
    func waitUntilIdle() { queue.sync {} }

    /// Waits for every submitted picture, drains the encoder and finishes the sink (for an
    /// ``OutputFile``: writes the trailer and moves the clip into place).
    func finish() throws {
        waitUntilIdle()
        try rethrowFailure()
        try encode(nil)
        try output.finish()
    }

    /// Sends `frame` (nil: drain) and writes every packet the encoder gives back.
    private func encode(_ frame: Frame?) throws {
        var sent = try encoder.send(frame)
        while true {
            switch try encoder.receive(into: packet) {
            case .packet:
                byteCount += Int(packet.pointer.pointee.size)
                try output.write(packet)
            case .needsInput:
                if sent { return }
                // EAGAIN from send: the packets are out now, so the frame goes in.
                sent = try encoder.send(frame)
                guard sent else { throw MediaError(.ioFailure, "the encoder refused a picture twice") }
            case .endOfStream:
                return
            }
        }
    }

    private var currentFailure: Error? { failure.withLock { $0 } }

    private func record(_ error: Error) {
        failure.withLock { failure in
            if failure == nil { failure = error }
        }
    }

    private func rethrowFailure() throws {
        if let error = currentFailure { throw error }
    }

    /// A frame handed to the encoder thread; the slot protocol above keeps it from being
    /// touched by two threads at once.
    private struct UncheckedFrame: @unchecked Sendable {
        let frame: Frame
    }
}
