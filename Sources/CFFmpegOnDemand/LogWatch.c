// FFmpeg's log, watched: storyreel prints its own one-line errors, so FFmpeg's messages are shown
// only when asked, but one of them is the only sign of a fault storyreel must report. libavformat's
// mov demuxer, when a track's chunk tables (stsc, stco) hold more samples than its size table
// (stsz) lists, logs "wrong sample count" and keeps the index it had built so far: the track
// silently ends early, and nothing in the opened context says so (ffprobe prints the line).
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include <libavutil/log.h>

#include "CFFmpegOnDemand.h"

/// The most verbose level passed on to FFmpeg's own printer (AV_LOG_QUIET: nothing).
static atomic_int shown_level = AV_LOG_QUIET;
/// Set when this thread's demuxer logged "wrong sample count" since the last clear.
static _Thread_local bool sample_count_fault;

static void watch(void *context, int level, const char *format, va_list arguments) {
    if (format != NULL && strcmp(format, "wrong sample count\n") == 0) {
        sample_count_fault = true;
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

void cff_clear_sample_count_fault(void) { sample_count_fault = false; }

bool cff_take_sample_count_fault(void) {
    bool seen = sample_count_fault;
    sample_count_fault = false;
    return seen;
}
