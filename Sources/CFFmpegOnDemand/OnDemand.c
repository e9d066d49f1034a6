// libavformat and libavcodec, loaded the first time storyreel calls into them rather than when it
// starts. With their dependencies they are about 110 shared libraries (x264, x265, libvpx,
// gnutls …) whose loading took 33 ms of every run's 44 ms start-up, media or not: `--help`,
// `plan`, and a render with nothing to do, which reads no media at all. libavutil and libswscale
// stay linked (2 ms).
//
// Each function of theirs that storyreel calls is defined here under its own name, with the
// prototype the headers declare (the compiler refuses any other), and hidden, so only storyreel's
// own code binds to it: the first call looks it up in the loaded libraries, later calls go
// straight to it. The media layer loads both first (`cff_load_media_libraries`, through
// `MediaLibraries`), so a library that cannot be loaded is a Swift error naming the file being
// read; a call that came first anyway ends the process with one line and exit 71 (EX_OSERR).
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

// libavutil's own declarations come first, with their default visibility: they are called
// through the linked library. What the two headers below declare after them is hidden.
#include <libavutil/avutil.h>
#include <libavutil/frame.h>
#include <libavutil/dict.h>
#pragma GCC visibility push(hidden)
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#pragma GCC visibility pop

#include "CFFmpegOnDemand.h"

#define ON_DEMAND_STRING(x) #x
#define ON_DEMAND_SONAME(name, major) "lib" name ".so." ON_DEMAND_STRING(major)

static const char *const avcodecName = ON_DEMAND_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR);
static const char *const avformatName = ON_DEMAND_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR);
static void *avcodecLibrary;
static void *avformatLibrary;
/// Set once both are loaded; until then, each load takes `loading` and tries again.
static bool ready;
static pthread_mutex_t loading = PTHREAD_MUTEX_INITIALIZER;

/// The errno a failed dlopen's text `why` names, when it is the system running out of open files
/// (dlopen leaves errno as it was, and says it only in its text); 0 otherwise.
static int openFilesShortage(const char *why) {
    if (strstr(why, strerror(EMFILE))) return EMFILE;
    if (strstr(why, strerror(ENFILE))) return ENFILE;
    return 0;
}

bool cff_media_libraries_loaded(void) { return __atomic_load_n(&ready, __ATOMIC_ACQUIRE); }

int cff_load_media_libraries(char *why, size_t capacity) {
    if (cff_media_libraries_loaded()) return 0;
    pthread_mutex_lock(&loading);
    int result = 0;
    if (!avcodecLibrary) avcodecLibrary = dlopen(avcodecName, RTLD_NOW | RTLD_LOCAL);
    if (avcodecLibrary && !avformatLibrary) avformatLibrary = dlopen(avformatName, RTLD_NOW | RTLD_LOCAL);
    if (avcodecLibrary && avformatLibrary) {
        __atomic_store_n(&ready, true, __ATOMIC_RELEASE);
    } else {
        const char *error = dlerror();
        error = error ? error : "unknown error";
        snprintf(why, capacity, "cannot load FFmpeg's %s: %s", avcodecLibrary ? avformatName : avcodecName, error);
        result = openFilesShortage(error);
        if (result == 0) result = -1;
    }
    pthread_mutex_unlock(&loading);
    return result;
}

/// Writes `storyreel: error: WHY` to stderr and exits 71 without running exit handlers (other
/// threads may be running).
static void failToLoad(const char *why) {
    static const char prefix[] = "storyreel: error: ";
    ssize_t ignored = write(STDERR_FILENO, prefix, sizeof prefix - 1);
    ignored = write(STDERR_FILENO, why, strlen(why));
    ignored = write(STDERR_FILENO, "\n", 1);
    (void)ignored;
    _exit(71);
}

/// The address of `symbol` in `*library` (one of the two), both loaded first when they are not.
static void *resolve(void *const *library, const char *libraryName, const char *symbol) {
    char why[1024];
    if (cff_load_media_libraries(why, sizeof why) != 0) failToLoad(why);
    void *address = dlsym(*library, symbol);
    if (!address) {
        const char *error = dlerror();
        snprintf(why, sizeof why, "cannot find %s in FFmpeg's %s: %s", symbol, libraryName,
                 error ? error : "unknown error");
        failToLoad(why);
    }
    return address;
}

// Defines `name`, a function of `library` (avcodec or avformat) returning `result`, declared with
// `parameters` and called with `arguments`: its address is looked up once, then kept.
#define ON_DEMAND(library, result, name, parameters, arguments)                                      \
    result name parameters {                                                                          \
        static result(*function) parameters;                                                          \
        result(*resolved) parameters = __atomic_load_n(&function, __ATOMIC_ACQUIRE);                  \
        if (!resolved) {                                                                              \
            resolved = (result(*) parameters)resolve(&library##Library, library##Name, #name);       \
            __atomic_store_n(&function, resolved, __ATOMIC_RELEASE);                                  \
        }                                                                                             \
        return resolved arguments;                                                                    \
    }
#define ON_DEMAND_VOID(library, name, parameters, arguments)                                         \
    void name parameters {                                                                            \
        static void(*function) parameters;                                                            \
        void(*resolved) parameters = __atomic_load_n(&function, __ATOMIC_ACQUIRE);                    \
        if (!resolved) {                                                                              \
            resolved = (void(*) parameters)resolve(&library##Library, library##Name, #name);         \
            __atomic_store_n(&function, resolved, __ATOMIC_RELEASE);                                  \
        }                                                                                             \
        resolved arguments;                                                                           \
    }

// libavformat
ON_DEMAND(avformat, int, av_find_best_stream,
          (AVFormatContext * ic, enum AVMediaType type, int wanted_stream_nb, int related_stream,
           const AVCodec **decoder_ret, int flags),
          (ic, type, wanted_stream_nb, related_stream, decoder_ret, flags))
ON_DEMAND(avformat, const AVInputFormat *, av_find_input_format, (const char *short_name), (short_name))
ON_DEMAND(avformat, AVRational, av_guess_sample_aspect_ratio,
          (AVFormatContext * format, AVStream *stream, AVFrame *frame), (format, stream, frame))
ON_DEMAND(avformat, int, av_interleaved_write_frame, (AVFormatContext * s, AVPacket *pkt), (s, pkt))
ON_DEMAND(avformat, int, av_read_frame, (AVFormatContext * s, AVPacket *pkt), (s, pkt))
ON_DEMAND(avformat, int, av_seek_frame, (AVFormatContext * s, int stream_index, int64_t timestamp, int flags),
          (s, stream_index, timestamp, flags))
ON_DEMAND(avformat, uint8_t *, av_stream_get_side_data,
          (const AVStream *stream, enum AVPacketSideDataType type, size_t *size), (stream, type, size))
ON_DEMAND(avformat, int, av_write_trailer, (AVFormatContext * s), (s))
ON_DEMAND(avformat, AVFormatContext *, avformat_alloc_context, (void), ())
ON_DEMAND(avformat, int, avformat_alloc_output_context2,
          (AVFormatContext * *ctx, const AVOutputFormat *oformat, const char *format_name, const char *filename),
          (ctx, oformat, format_name, filename))
ON_DEMAND_VOID(avformat, avformat_close_input, (AVFormatContext * *s), (s))
ON_DEMAND(avformat, int, avformat_find_stream_info, (AVFormatContext * ic, AVDictionary **options), (ic, options))
ON_DEMAND_VOID(avformat, avformat_free_context, (AVFormatContext * s), (s))
ON_DEMAND(avformat, int, avformat_index_get_entries_count, (const AVStream *st), (st))
ON_DEMAND(avformat, const AVIndexEntry *, avformat_index_get_entry, (AVStream * st, int idx), (st, idx))
ON_DEMAND(avformat, AVStream *, avformat_new_stream, (AVFormatContext * s, const AVCodec *c), (s, c))
ON_DEMAND(avformat, int, avformat_open_input,
          (AVFormatContext * *ps, const char *url, const AVInputFormat *fmt, AVDictionary **options),
          (ps, url, fmt, options))
ON_DEMAND(avformat, int, avformat_write_header, (AVFormatContext * s, AVDictionary **options), (s, options))
ON_DEMAND(avformat, int, avio_closep, (AVIOContext * *s), (s))
ON_DEMAND(avformat, int, avio_open, (AVIOContext * *s, const char *url, int flags), (s, url, flags))
ON_DEMAND(avformat, int, avio_read, (AVIOContext * s, unsigned char *buf, int size), (s, buf, size))
ON_DEMAND(avformat, int64_t, avio_seek, (AVIOContext * s, int64_t offset, int whence), (s, offset, whence))

// libavcodec
ON_DEMAND(avcodec, AVPacket *, av_packet_alloc, (void), ())
ON_DEMAND_VOID(avcodec, av_packet_free, (AVPacket * *pkt), (pkt))
ON_DEMAND(avcodec, int, av_packet_ref, (AVPacket * dst, const AVPacket *src), (dst, src))
ON_DEMAND_VOID(avcodec, av_packet_rescale_ts, (AVPacket * pkt, AVRational tb_src, AVRational tb_dst),
               (pkt, tb_src, tb_dst))
ON_DEMAND_VOID(avcodec, av_packet_unref, (AVPacket * pkt), (pkt))
ON_DEMAND_VOID(avcodec, av_parser_close, (AVCodecParserContext * s), (s))
ON_DEMAND(avcodec, AVCodecParserContext *, av_parser_init, (int codec_id), (codec_id))
ON_DEMAND(avcodec, int, av_parser_parse2,
          (AVCodecParserContext * s, AVCodecContext *avctx, uint8_t **poutbuf, int *poutbuf_size,
           const uint8_t *buf, int buf_size, int64_t pts, int64_t dts, int64_t pos),
          (s, avctx, poutbuf, poutbuf_size, buf, buf_size, pts, dts, pos))
ON_DEMAND(avcodec, AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec))
ON_DEMAND(avcodec, const AVCodecDescriptor *, avcodec_descriptor_get, (enum AVCodecID id), (id))
ON_DEMAND(avcodec, const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id))
ON_DEMAND(avcodec, const AVCodec *, avcodec_find_encoder_by_name, (const char *name), (name))
ON_DEMAND_VOID(avcodec, avcodec_flush_buffers, (AVCodecContext * avctx), (avctx))
ON_DEMAND_VOID(avcodec, avcodec_free_context, (AVCodecContext * *avctx), (avctx))
ON_DEMAND(avcodec, const char *, avcodec_get_name, (enum AVCodecID id), (id))
ON_DEMAND(avcodec, int, avcodec_open2, (AVCodecContext * avctx, const AVCodec *codec, AVDictionary **options),
          (avctx, codec, options))
ON_DEMAND(avcodec, int, avcodec_parameters_from_context, (AVCodecParameters * par, const AVCodecContext *codec),
          (par, codec))
ON_DEMAND(avcodec, int, avcodec_parameters_to_context, (AVCodecContext * codec, const AVCodecParameters *par),
          (codec, par))
ON_DEMAND(avcodec, const char *, avcodec_profile_name, (enum AVCodecID codec_id, int profile), (codec_id, profile))
ON_DEMAND(avcodec, int, avcodec_receive_frame, (AVCodecContext * avctx, AVFrame *frame), (avctx, frame))
ON_DEMAND(avcodec, int, avcodec_receive_packet, (AVCodecContext * avctx, AVPacket *avpkt), (avctx, avpkt))
ON_DEMAND(avcodec, int, avcodec_send_frame, (AVCodecContext * avctx, const AVFrame *frame), (avctx, frame))
ON_DEMAND(avcodec, int, avcodec_send_packet, (AVCodecContext * avctx, const AVPacket *avpkt), (avctx, avpkt))
