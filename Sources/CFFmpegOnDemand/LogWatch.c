// FFmpeg's log, watched: storyreel prints its own one-line errors, so FFmpeg's messages are shown
// only when asked, but three of them are the only sign of a fault storyreel must report. libavformat's
// mov demuxer keeps the index it had built so far, and so silently ends the track early, when a
// track's chunk tables (stsc, stco) hold more samples than its size table (stsz) lists ("wrong
// sample count") and when a sample's size in that table is 2^30 bytes or more ("Sample size %u is
// too large"), and it drops every composition offset of a track when one is too large for it
// ("CTTS invalid": as a nanosecond timescale with B-frames gives), which
// mistimes the track and hides frames behind its edit list. Nothing in the opened context says
// so; ffprobe prints the line.
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include <libavutil/log.h>

#include "CFFmpegOnDemand.h"

/// The most verbose level passed on to FFmpeg's own printer (AV_LOG_QUIET: nothing).
static atomic_int shown_level = AV_LOG_QUIET;
/// The first index fault this thread's demuxer logged since the last clear.
static _Thread_local enum cff_index_fault index_fault = CFF_INDEX_WHOLE;

static void watch(void *context, int level, const char *format, va_list arguments) {
    if (format != NULL && index_fault == CFF_INDEX_WHOLE) {
        if (strcmp(format, "wrong sample count\n") == 0) {
            index_fault = CFF_INDEX_WRONG_SAMPLE_COUNT;
        } else if (strcmp(format, "Sample size %u is too large\n") == 0) {
            index_fault = CFF_INDEX_SAMPLE_TOO_LARGE;
        } else if (strcmp(format, "CTTS invalid\n") == 0) {
            index_fault = CFF_INDEX_CTTS_INVALID;
        }
    }
    if (level <= atomic_load(&shown_level)) {
        av_log_default_callback(context, level, format, arguments);
    }
}

void cff_watch_log(int shown) {
    atomic_store(&shown_level, shown);
    // FFmpeg drops a message above its level before any callback sees it: errors must get through.
    av_log_set_level(shown > AV_LOG_ERROR ? shown : AV_LOG_ERROR);
    av_log_set_callback(watch);
}

void cff_clear_index_fault(void) { index_fault = CFF_INDEX_WHOLE; }

enum cff_index_fault cff_take_index_fault(void) {
    enum cff_index_fault seen = index_fault;
    index_fault = CFF_INDEX_WHOLE;
    return seen;
}
