import CFFmpeg
import CFFmpegOnDemand

/// The bytes of decoded pictures one decoder's buffers hold, counted where the decoder allocates
/// each picture: owns the ledger's `AVBufferRef` (PictureLedger.c), released with
/// `av_buffer_unref` (a picture still held keeps its own reference).
///
/// The reference-picture check (``Decoder``) reads the count a stream declares where storyreel
/// can read it; the ledger bounds what any stream makes its decoder hold, however its headers
/// arrive (in the packets, or a configuration record in another form than storyreel reads) and
/// whatever the codec (VP9's eight reference slots, say).
public final class PictureLedger {
    /// The most bytes of pictures a decoder and its caller may hold at once: the reference
    /// pictures the largest level keeps (``Decoder/referencePictureBytes``), the pictures frame
    /// threads decode at once (``Decoder/inFlightPictureBytes``), the frames a caller keeps (the
    /// smart poster pick's 256 MB) and the picture being decoded, with room to spare. An audit's
    /// HEVC stream of 16 pictures of 8192x8192 in 4:4:4 12-bit would hold 6.8 GB.
    public static let standardLimit = 2 << 30

    /// The most bytes this ledger lets pictures hold.
    let limit: Int

    private var reference: UnsafeMutablePointer<AVBufferRef>?

    /// Installs a ledger of `limit` bytes on `context`, before it is opened; nil when out of
    /// memory.
    init?(installingOn context: UnsafeMutablePointer<AVCodecContext>, limit: Int) {
        guard let installed = cff_picture_ledger_install(context, Int64(limit)) else { return nil }
        reference = installed
        self.limit = limit
    }

    deinit { av_buffer_unref(&reference) }

    /// The first picture the ledger refused, or nil.
    var refusal: cff_picture_refusal? {
        guard let reference else { return nil }
        var refusal = cff_picture_refusal()
        return cff_picture_ledger_refusal(reference, &refusal) ? refusal : nil
    }

    /// The bytes of pictures held now.
    var heldBytes: Int {
        guard let reference else { return 0 }
        return Int(clamping: cff_picture_ledger_held(reference))
    }
}
