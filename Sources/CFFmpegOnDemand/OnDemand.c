// libavformat and libavcodec, loaded the first time storyreel calls into them rather than when it
// starts. With their dependencies they are about 110 shared libraries (x264, x265, libvpx,
// gnutls …) whose loading took 33 ms of every run's 44 ms start-up, media or not: `--help`,
// `plan`, and a render with nothing to do, which reads no media at all. libavutil and libswscale
// stay linked (2 ms).
//
// Each function of theirs that storyreel calls is defined here under its own name, with the
// prototype the headers declare (the compiler refuses any other), and hidden, so only storyreel's
// own code binds to it; it calls the library's function, whose address the load looked up. The
// load looks up every one of them, so a library that loads but lacks one (another build, another
// version) fails the load as a missing library does. The media layer loads them first
// (`cff_load_media_libraries`, through `MediaLibraries`), so either failure is a Swift error
// naming the file being read; a call that came first anyway ends the process with one line and
// exit 71 (EX_OSERR).
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
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

// Every function of the two libraries that storyreel calls: FUNCTION(library, result, name,
// parameters, arguments), or PROCEDURE(library, name, parameters, arguments) for one returning
// void. Each is declared by the headers above; a prototype that differs from theirs is an error.
#define MEDIA_FUNCTIONS(FUNCTION, PROCEDURE)                                                          \
    FUNCTION(avformat, int, av_find_best_stream,                                                     \
             (AVFormatContext * ic, enum AVMediaType type, int wanted_stream_nb, int related_stream, \
              const AVCodec **decoder_ret, int flags),                                               \
             (ic, type, wanted_stream_nb, related_stream, decoder_ret, flags))                       \
    FUNCTION(avformat, const AVInputFormat *, av_find_input_format, (const char *short_name), (short_name)) \
    FUNCTION(avformat, AVRational, av_guess_sample_aspect_ratio,                                     \
             (AVFormatContext * format, AVStream *stream, AVFrame *frame), (format, stream, frame))  \
    FUNCTION(avformat, int, av_interleaved_write_frame, (AVFormatContext * s, AVPacket *pkt), (s, pkt)) \
    FUNCTION(avformat, int, av_read_frame, (AVFormatContext * s, AVPacket *pkt), (s, pkt))          \
    FUNCTION(avformat, int, av_seek_frame,                                                           \
             (AVFormatContext * s, int stream_index, int64_t timestamp, int flags),                  \
             (s, stream_index, timestamp, flags))                                                     \
    FUNCTION(avformat, uint8_t *, av_stream_get_side_data,                                           \
             (const AVStream *stream, enum AVPacketSideDataType type, size_t *size), (stream, type, size)) \
    FUNCTION(avformat, int, av_write_trailer, (AVFormatContext * s), (s))                            \
    FUNCTION(avformat, AVFormatContext *, avformat_alloc_context, (void), ())                        \
    FUNCTION(avformat, int, avformat_alloc_output_context2,                                          \
             (AVFormatContext * *ctx, const AVOutputFormat *oformat, const char *format_name,        \
              const char *filename),                                                                 \
             (ctx, oformat, format_name, filename))                                                  \
    PROCEDURE(avformat, avformat_close_input, (AVFormatContext * *s), (s))                           \
    FUNCTION(avformat, int, avformat_find_stream_info, (AVFormatContext * ic, AVDictionary **options), \
             (ic, options))                                                                          \
    PROCEDURE(avformat, avformat_free_context, (AVFormatContext * s), (s))                           \
    FUNCTION(avformat, int, avformat_index_get_entries_count, (const AVStream *st), (st))            \
    FUNCTION(avformat, const AVIndexEntry *, avformat_index_get_entry, (AVStream * st, int idx), (st, idx)) \
    FUNCTION(avformat, AVStream *, avformat_new_stream, (AVFormatContext * s, const AVCodec *c), (s, c)) \
    FUNCTION(avformat, int, avformat_open_input,                                                     \
             (AVFormatContext * *ps, const char *url, const AVInputFormat *fmt, AVDictionary **options), \
             (ps, url, fmt, options))                                                                \
    FUNCTION(avformat, int, avformat_write_header, (AVFormatContext * s, AVDictionary **options), (s, options)) \
    FUNCTION(avformat, int, avio_closep, (AVIOContext * *s), (s))                                    \
    PROCEDURE(avformat, avio_flush, (AVIOContext * s), (s))                                          \
    FUNCTION(avformat, int, avio_open, (AVIOContext * *s, const char *url, int flags), (s, url, flags)) \
    FUNCTION(avformat, int, avio_read, (AVIOContext * s, unsigned char *buf, int size), (s, buf, size)) \
    FUNCTION(avformat, int64_t, avio_seek, (AVIOContext * s, int64_t offset, int whence), (s, offset, whence)) \
    FUNCTION(avcodec, AVPacket *, av_packet_alloc, (void), ())                                       \
    PROCEDURE(avcodec, av_packet_free, (AVPacket * *pkt), (pkt))                                     \
    FUNCTION(avcodec, int, av_packet_ref, (AVPacket * dst, const AVPacket *src), (dst, src))         \
    PROCEDURE(avcodec, av_packet_rescale_ts, (AVPacket * pkt, AVRational tb_src, AVRational tb_dst), \
              (pkt, tb_src, tb_dst))                                                                 \
    PROCEDURE(avcodec, av_packet_unref, (AVPacket * pkt), (pkt))                                     \
    PROCEDURE(avcodec, av_parser_close, (AVCodecParserContext * s), (s))                             \
    FUNCTION(avcodec, AVCodecParserContext *, av_parser_init, (int codec_id), (codec_id))            \
    FUNCTION(avcodec, int, av_parser_parse2,                                                         \
             (AVCodecParserContext * s, AVCodecContext *avctx, uint8_t **poutbuf, int *poutbuf_size, \
              const uint8_t *buf, int buf_size, int64_t pts, int64_t dts, int64_t pos),              \
             (s, avctx, poutbuf, poutbuf_size, buf, buf_size, pts, dts, pos))                        \
    FUNCTION(avcodec, AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec))     \
    FUNCTION(avcodec, int, avcodec_default_get_buffer2, (AVCodecContext * s, AVFrame *frame, int flags), \
             (s, frame, flags))                                                                      \
    FUNCTION(avcodec, const AVCodecDescriptor *, avcodec_descriptor_get, (enum AVCodecID id), (id))  \
    FUNCTION(avcodec, const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id))              \
    FUNCTION(avcodec, const AVCodec *, avcodec_find_encoder_by_name, (const char *name), (name))     \
    PROCEDURE(avcodec, avcodec_flush_buffers, (AVCodecContext * avctx), (avctx))                     \
    PROCEDURE(avcodec, avcodec_free_context, (AVCodecContext * *avctx), (avctx))                     \
    FUNCTION(avcodec, const char *, avcodec_get_name, (enum AVCodecID id), (id))                     \
    FUNCTION(avcodec, int, avcodec_open2,                                                            \
             (AVCodecContext * avctx, const AVCodec *codec, AVDictionary **options), (avctx, codec, options)) \
    FUNCTION(avcodec, int, avcodec_parameters_from_context,                                          \
             (AVCodecParameters * par, const AVCodecContext *codec), (par, codec))                   \
    FUNCTION(avcodec, int, avcodec_parameters_to_context,                                            \
             (AVCodecContext * codec, const AVCodecParameters *par), (codec, par))                   \
    FUNCTION(avcodec, const char *, avcodec_profile_name, (enum AVCodecID codec_id, int profile),    \
             (codec_id, profile))                                                                    \
    FUNCTION(avcodec, int, avcodec_receive_frame, (AVCodecContext * avctx, AVFrame *frame), (avctx, frame)) \
    FUNCTION(avcodec, int, avcodec_receive_packet, (AVCodecContext * avctx, AVPacket *avpkt), (avctx, avpkt)) \
    FUNCTION(avcodec, int, avcodec_send_frame, (AVCodecContext * avctx, const AVFrame *frame), (avctx, frame)) \
    FUNCTION(avcodec, int, avcodec_send_packet, (AVCodecContext * avctx, const AVPacket *avpkt), (avctx, avpkt))

#define ON_DEMAND_STRING(x) #x
#define ON_DEMAND_SONAME(name, major) "lib" name ".so." ON_DEMAND_STRING(major)

static const char *const avcodecName = ON_DEMAND_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR);
static const char *const avformatName = ON_DEMAND_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR);
static void *avcodecLibrary;
static void *avformatLibrary;
/// Set once both are loaded and every function looked up; until then, each load takes `loading`
/// and tries again.
static bool ready;
static pthread_mutex_t loading = PTHREAD_MUTEX_INITIALIZER;

// Each function's address in its library, set by the load before `ready`.
#define ADDRESS(library, result, name, parameters, arguments) static result(*name##Address) parameters;
#define PROCEDURE_ADDRESS(library, name, parameters, arguments) static void(*name##Address) parameters;
MEDIA_FUNCTIONS(ADDRESS, PROCEDURE_ADDRESS)

/// What the load looks up: each function's name, its library, and where its address goes.
struct MediaFunction {
    void *const *library;
    const char *name;
    void **address;
};
#define ENTRY(library, result, name, parameters, arguments) {&library##Library, #name, (void **)&name##Address},
#define PROCEDURE_ENTRY(library, name, parameters, arguments) ENTRY(library, void, name, parameters, arguments)
static const struct MediaFunction mediaFunctions[] = {MEDIA_FUNCTIONS(ENTRY, PROCEDURE_ENTRY)};

/// The errno a failed dlopen's text `why` names, when it is the system running out of open files
/// (dlopen leaves errno as it was, and says it only in its text); 0 otherwise.
static int openFilesShortage(const char *why) {
    if (strstr(why, strerror(EMFILE))) return EMFILE;
    if (strstr(why, strerror(ENFILE))) return ENFILE;
    return 0;
}

bool cff_media_libraries_loaded(void) { return __atomic_load_n(&ready, __ATOMIC_ACQUIRE); }

/// Looks up every function; false, with why in `why`, when one is missing.
static bool lookUpFunctions(char *why, size_t capacity) {
    for (size_t index = 0; index < sizeof mediaFunctions / sizeof mediaFunctions[0]; index++) {
        const struct MediaFunction *function = &mediaFunctions[index];
        void *address = dlsym(*function->library, function->name);
        if (!address) {
            const char *error = dlerror();
            const char *library = *function->library == avcodecLibrary ? avcodecName : avformatName;
            snprintf(why, capacity, "cannot load FFmpeg's %s: it has no %s (%s)", library, function->name,
                     error ? error : "not found");
            return false;
        }
        *function->address = address;
    }
    return true;
}

int cff_load_media_libraries(char *why, size_t capacity) {
    if (cff_media_libraries_loaded()) return 0;
    pthread_mutex_lock(&loading);
    int result = 0;
    if (!avcodecLibrary) avcodecLibrary = dlopen(avcodecName, RTLD_NOW | RTLD_LOCAL);
    if (avcodecLibrary && !avformatLibrary) avformatLibrary = dlopen(avformatName, RTLD_NOW | RTLD_LOCAL);
    if (!avcodecLibrary || !avformatLibrary) {
        const char *error = dlerror();
        error = error ? error : "unknown error";
        snprintf(why, capacity, "cannot load FFmpeg's %s: %s", avcodecLibrary ? avformatName : avcodecName, error);
        result = openFilesShortage(error);
        if (result == 0) result = -1;
    } else if (!cff_media_libraries_loaded()) {
        if (lookUpFunctions(why, capacity)) {
            __atomic_store_n(&ready, true, __ATOMIC_RELEASE);
        } else {
            result = -1;
        }
    }
    pthread_mutex_unlock(&loading);
    return result;
}

/// Loads the libraries unless they are, or writes `storyreel: error: WHY` to stderr in one write
/// and exits 71 without running exit handlers (other threads may be running): only a call that
/// came before the media layer loaded them gets here, which none should.
static void loadOrExit(void) {
    if (cff_media_libraries_loaded()) return;
    char why[1024];
    if (cff_load_media_libraries(why, sizeof why) == 0) return;
    char line[1100];
    int length = snprintf(line, sizeof line, "storyreel: error: %s\n", why);
    if (length > (int)sizeof line - 1) length = (int)sizeof line - 1;
    ssize_t ignored = write(STDERR_FILENO, line, (size_t)length);
    (void)ignored;
    _exit(71);
}

// Each function, under its own name: it calls the library's.
#define DEFINITION(library, result, name, parameters, arguments) \
    result name parameters {                                     \
        loadOrExit();                                            \
        return name##Address arguments;                          \
    }
#define PROCEDURE_DEFINITION(library, name, parameters, arguments) \
    void name parameters {                                         \
        loadOrExit();                                              \
        name##Address arguments;                                   \
    }
MEDIA_FUNCTIONS(DEFINITION, PROCEDURE_DEFINITION)

/// libx264's table of CPU flag names (x264.h's `x264_cpu_name_t`): each name with the flags it
/// stands for, including those it implies (`AVX512` holds `AVX2`'s too).
struct X264CPUName {
    const char *name;
    uint32_t flags;
};

uint32_t cff_x264_cpu_flags_without_avx512(void) {
    if (!cff_media_libraries_loaded()) return 0;
    // Looked up through libavcodec, whose dependencies include libx264.
    uint32_t (*detect)(void) = (uint32_t(*)(void))dlsym(avcodecLibrary, "x264_cpu_detect");
    const struct X264CPUName *names = dlsym(avcodecLibrary, "x264_cpu_names");
    if (!detect || !names) return 0;
    uint32_t avx2 = 0, avx512 = 0;
    for (size_t index = 0; index < 64 && names[index].flags; index++) {
        if (strcmp(names[index].name, "AVX2") == 0) avx2 = names[index].flags;
        if (strcmp(names[index].name, "AVX512") == 0) avx512 = names[index].flags;
    }
    uint32_t own = avx512 & ~avx2;
    if (!avx2 || !own) return 0;
    uint32_t detected = detect();
    return (detected & own) ? detected & ~own : 0;
}
