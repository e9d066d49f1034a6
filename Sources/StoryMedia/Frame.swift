import CFFmpeg

/// A decoded picture (or audio chunk): owns an `AVFrame`, freed with `av_frame_free`.
public final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>

    /// Allocates an empty frame.
    public init() throws {
        guard let allocated = av_frame_alloc() else { throw MediaError(.ioFailure, "out of memory (frame)") }
        pointer = allocated
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// Releases the frame's buffers so it can be reused.
    public func unref() { av_frame_unref(pointer) }

    /// The frame's side data of `type` (its bytes, copied), or nil when it has none.
    func sideData(_ type: AVFrameSideDataType) -> [UInt8]? {
        guard let side = av_frame_get_side_data(pointer, type)?.pointee, let data = side.data, side.size > 0 else {
            return nil
        }
        return Array(UnsafeBufferPointer(start: data, count: side.size))
    }

    /// Gives the frame a buffer of its own for a `width` × `height` picture in `format`, with
    /// libavutil's alignment and padding (what libswscale's vector code may read and write past
    /// a row's end).
    func allocate(width: Int, height: Int, format: AVPixelFormat) throws {
        pointer.pointee.width = Int32(clamping: width)
        pointer.pointee.height = Int32(clamping: height)
        pointer.pointee.format = format.rawValue
        try ffmpegCheck(av_frame_get_buffer(pointer, 0), "cannot allocate a frame", kind: .ioFailure)
    }

    /// The first byte and the stride of plane `index` (0, 1 or 2) of an allocated picture.
    func plane(_ index: Int) -> (base: UnsafeMutableRawPointer, stride: Int) {
        precondition((0...2).contains(index), "plane \(index) of a picture with 3")
        let frame = pointer.pointee
        let (data, stride) =
            switch index {
            case 0: (frame.data.0, frame.linesize.0)
            case 1: (frame.data.1, frame.linesize.1)
            default: (frame.data.2, frame.linesize.2)
            }
        return (UnsafeMutableRawPointer(data!), Int(stride))
    }

    /// Moves `other`'s buffers into this frame, leaving `other` empty.
    public func take(from other: Frame) {
        av_frame_unref(pointer)
        av_frame_move_ref(pointer, other.pointer)
    }

    /// Width in pixels.
    public var width: Int { Int(pointer.pointee.width) }
    /// Height in pixels.
    public var height: Int { Int(pointer.pointee.height) }

    /// The best-effort presentation timestamp in the stream's time base, or nil when unknown.
    public var presentationTimestamp: Int64? {
        let value = pointer.pointee.best_effort_timestamp
        return value == cff_nopts_value() ? nil : value
    }

    /// How long the picture shows, in the stream's time base (its packet's duration), or nil
    /// when unknown.
    public var duration: Int64? {
        let value = pointer.pointee.pkt_duration
        return value > 0 ? value : nil
    }

    /// The bytes of the buffers the frame holds (0 for an empty frame): what keeping it costs.
    public var bufferBytes: Int {
        withUnsafeBytes(of: pointer.pointee.buf) { raw in
            raw.bindMemory(to: UnsafeMutablePointer<AVBufferRef>?.self).reduce(0) { total, buffer in
                total + (buffer.map { Int(clamping: $0.pointee.size) } ?? 0)
            }
        }
    }

    /// True when the decoder marked this frame as a keyframe.
    public var isKeyframe: Bool { pointer.pointee.key_frame != 0 }

    /// The display matrix the decoder attached to the picture, as 9 fixed-point values, or nil:
    /// libavcodec's mjpeg decoder turns a JPEG's EXIF orientation (2 to 8) into one.
    var displayMatrix: [Int32]? {
        guard let sideData = av_frame_get_side_data(pointer, AV_FRAME_DATA_DISPLAYMATRIX),
            sideData.pointee.size >= 9 * MemoryLayout<Int32>.size, let data = sideData.pointee.data
        else { return nil }
        let bytes = UnsafeRawPointer(data)
        return (0..<9).map { bytes.loadUnaligned(fromByteOffset: $0 * MemoryLayout<Int32>.size, as: Int32.self) }
    }

    var pixelFormat: AVPixelFormat { AVPixelFormat(rawValue: pointer.pointee.format) }
}
