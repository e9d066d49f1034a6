// A decoder's ledger of the bytes its decoded pictures hold. How many pictures a decoder keeps is
// the bitstream's to say (H.264's and HEVC's sequence parameter sets, VP9's eight reference
// slots), and a sequence parameter set can come from the container's configuration, in another
// form than storyreel reads there, or in the packets themselves. So the count is kept where every
// picture is allocated: the decoder's get_buffer2, which allocates as FFmpeg's default does and
// then wraps each plane's buffer in one whose release takes its bytes off the ledger. A picture
// that would bring what is still held past the ledger's limit is refused (ENOMEM), and the refusal
// is recorded for the caller to name.
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <libavutil/buffer.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/mem.h>
#pragma GCC visibility push(hidden)
#include <libavcodec/avcodec.h>
#pragma GCC visibility pop

#include "CFFmpegOnDemand.h"

/// The ledger's state, in an AVBufferRef's data: the decoder's context and every held picture
/// buffer keep a reference, so a frame that outlives its decoder still has a ledger to release to.
struct Ledger {
    _Atomic int64_t held;
    int64_t limit;
    /// Set by the first refusal before it writes `refusal`; `recorded` is set after.
    atomic_bool claimed;
    atomic_bool recorded;
    struct cff_picture_refusal refusal;
};

/// One plane's buffer as the decoder got it, with the ledger it is counted in.
struct Hold {
    AVBufferRef *ledger;
    AVBufferRef *picture;
    int64_t bytes;
};

static struct Ledger *ledgerOf(const AVBufferRef *reference) { return (struct Ledger *)reference->data; }

static void releaseHold(void *opaque, uint8_t *data) {
    (void)data;
    struct Hold *hold = opaque;
    atomic_fetch_sub(&ledgerOf(hold->ledger)->held, hold->bytes);
    av_buffer_unref(&hold->picture);
    av_buffer_unref(&hold->ledger);
    av_free(hold);
}

static void recordRefusal(struct Ledger *ledger, const AVFrame *frame, int64_t bytes, int64_t held) {
    bool expected = false;
    if (!atomic_compare_exchange_strong(&ledger->claimed, &expected, true)) return;
    ledger->refusal = (struct cff_picture_refusal){
        .width = frame->width, .height = frame->height, .picture_bytes = bytes, .held_bytes = held};
    atomic_store_explicit(&ledger->recorded, true, memory_order_release);
}

static int countedGetBuffer(AVCodecContext *context, AVFrame *frame, int flags) {
    int result = avcodec_default_get_buffer2(context, frame, flags);
    if (result < 0 || context->codec_type != AVMEDIA_TYPE_VIDEO) return result;
    AVBufferRef *reference = context->opaque;
    struct Ledger *ledger = ledgerOf(reference);
    int64_t bytes = 0;
    for (int plane = 0; plane < AV_NUM_DATA_POINTERS && frame->buf[plane]; plane++) {
        bytes += (int64_t)frame->buf[plane]->size;
    }
    int64_t before = atomic_fetch_add(&ledger->held, bytes);
    if (before + bytes > ledger->limit) {
        atomic_fetch_sub(&ledger->held, bytes);
        recordRefusal(ledger, frame, bytes, before);
        av_frame_unref(frame);
        return AVERROR(ENOMEM);
    }
    for (int plane = 0; plane < AV_NUM_DATA_POINTERS && frame->buf[plane]; plane++) {
        AVBufferRef *picture = frame->buf[plane];
        struct Hold *hold = av_mallocz(sizeof *hold);
        AVBufferRef *held = hold ? av_buffer_ref(reference) : NULL;
        AVBufferRef *wrapped = held ? av_buffer_create(picture->data, picture->size, releaseHold, hold, 0) : NULL;
        if (!wrapped) {
            // This plane and the ones after it are not wrapped: their bytes come off here, the
            // wrapped ones' as the frame lets them go.
            for (int rest = plane; rest < AV_NUM_DATA_POINTERS && frame->buf[rest]; rest++) {
                atomic_fetch_sub(&ledger->held, (int64_t)frame->buf[rest]->size);
            }
            av_buffer_unref(&held);
            av_free(hold);
            av_frame_unref(frame);
            return AVERROR(ENOMEM);
        }
        *hold = (struct Hold){.ledger = held, .picture = picture, .bytes = (int64_t)picture->size};
        frame->buf[plane] = wrapped;
    }
    return 0;
}

AVBufferRef *cff_picture_ledger_install(AVCodecContext *context, int64_t limit) {
    AVBufferRef *reference = av_buffer_allocz(sizeof(struct Ledger));
    if (!reference) return NULL;
    struct Ledger *ledger = ledgerOf(reference);
    atomic_init(&ledger->held, 0);
    ledger->limit = limit;
    atomic_init(&ledger->claimed, false);
    atomic_init(&ledger->recorded, false);
    context->opaque = reference;
    context->get_buffer2 = countedGetBuffer;
#if LIBAVCODEC_VERSION_MAJOR < 60
    // The callback is thread-safe (atomics, and FFmpeg's default allocator); FFmpeg 5.1 still
    // asks, and warns on every decoder with frame threads unless told.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    context->thread_safe_callbacks = 1;
#pragma GCC diagnostic pop
#endif
    return reference;
}

bool cff_picture_ledger_refusal(const AVBufferRef *reference, struct cff_picture_refusal *refusal) {
    struct Ledger *ledger = ledgerOf(reference);
    if (!atomic_load_explicit(&ledger->recorded, memory_order_acquire)) return false;
    *refusal = ledger->refusal;
    return true;
}

int64_t cff_picture_ledger_held(const AVBufferRef *reference) { return atomic_load(&ledgerOf(reference)->held); }
