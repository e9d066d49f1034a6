// libavformat and libavcodec, loaded on demand (OnDemand.c): storyreel calls their functions by
// their own names, through CFFmpeg's headers, and those calls bind to the definitions in
// OnDemand.c, which call into the libraries loaded here.
#ifndef STORYREEL_CFFMPEG_ON_DEMAND_H
#define STORYREEL_CFFMPEG_ON_DEMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct AVBufferRef;
struct AVCodecContext;

/// True once libavcodec and libavformat are loaded.
bool cff_media_libraries_loaded(void);

/// Loads libavcodec and libavformat unless they are loaded. Returns 0 when both are; otherwise
/// writes why not into `why` (`cannot load FFmpeg's libavformat.so.59: …`, cut to `capacity`
/// bytes) and returns EMFILE or ENFILE when the process or the system was out of open files,
/// -1 for any other reason. A failure is not kept: the next call tries again.
int cff_load_media_libraries(char *why, size_t capacity);

/// The CPU flags libx264 detects, less AVX-512, as a number for its `asm` parameter; 0 when the
/// CPU has no AVX-512, or the libraries are not loaded, or libx264's symbols are not found (the
/// encoder then takes what it detects). libx264 r3095's AVX-512 code made encodes of identical
/// pictures differ from run to run in storyreel's process (16x16 and 24x24 canvases: 2 to 7
/// files in 16 runs), where its AVX2 code gives one file every run, as fast.
uint32_t cff_x264_cpu_flags_without_avx512(void);

/// A fault the mov demuxer logs and then reads a track wrongly for (ends its index early, or
/// mistimes it), silently otherwise.
enum cff_index_fault {
    /// None logged.
    CFF_INDEX_WHOLE = 0,
    /// "wrong sample count": the track's chunk tables hold more samples than its size table lists.
    CFF_INDEX_WRONG_SAMPLE_COUNT = 1,
    /// "Sample size %u is too large": a sample's size in the size table is 2^30 bytes or more.
    CFF_INDEX_SAMPLE_TOO_LARGE = 2,
    /// "CTTS invalid": a composition offset too large for the demuxer (as a nanosecond timescale
    /// with B-frames gives), which then drops them all and mistimes the track.
    CFF_INDEX_CTTS_INVALID = 3,
};

/// Routes FFmpeg's log through storyreel's watcher (LogWatch.c): messages at `shown` or more
/// severe go to FFmpeg's own printer (AV_LOG_QUIET: none), and the demuxer's index faults
/// (`enum cff_index_fault`: the track's index ends early) are noted for the thread that logged
/// them. Call it once, before other threads start.
void cff_watch_log(int shown);

/// Forgets this thread's note of an index fault; call it before opening a file.
void cff_clear_index_fault(void);

/// The first index fault this thread's demuxer logged since the last clear; clears it.
enum cff_index_fault cff_take_index_fault(void);

/// A picture a decoder's ledger refused (PictureLedger.c).
struct cff_picture_refusal {
    /// The picture's size.
    int width, height;
    /// The bytes of the picture's buffers.
    int64_t picture_bytes;
    /// The bytes of pictures held when it was asked for.
    int64_t held_bytes;
};

/// Counts the bytes of the video pictures `context` decodes into, as long as any of their buffers
/// is held, by the decoder or by a frame given out: installs a get_buffer2 that allocates as
/// FFmpeg's default does, and refuses (AVERROR(ENOMEM)) a picture that would bring the bytes held
/// past `limit`. Call it before avcodec_open2; it sets the context's `opaque`. Returns the
/// ledger's reference, which the caller releases (av_buffer_unref) after freeing the context (a
/// picture still held keeps the ledger), or NULL when out of memory.
struct AVBufferRef *cff_picture_ledger_install(struct AVCodecContext *context, int64_t limit);

/// True, with the first refused picture in `refusal`, once the ledger has refused one.
bool cff_picture_ledger_refusal(const struct AVBufferRef *ledger, struct cff_picture_refusal *refusal);

/// The bytes of pictures the ledger counts as held now.
int64_t cff_picture_ledger_held(const struct AVBufferRef *ledger);

#endif
