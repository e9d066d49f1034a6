// libavformat and libavcodec, loaded on demand (OnDemand.c): storyreel calls their functions by
// their own names, through CFFmpeg's headers, and those calls bind to the definitions in
// OnDemand.c, which call into the libraries loaded here.
#ifndef STORYREEL_CFFMPEG_ON_DEMAND_H
#define STORYREEL_CFFMPEG_ON_DEMAND_H

#include <stdbool.h>
#include <stddef.h>

/// True once libavcodec and libavformat are loaded.
bool cff_media_libraries_loaded(void);

/// Loads libavcodec and libavformat unless they are loaded. Returns 0 when both are; otherwise
/// writes why not into `why` (`cannot load FFmpeg's libavformat.so.59: …`, cut to `capacity`
/// bytes) and returns EMFILE or ENFILE when the process or the system was out of open files,
/// -1 for any other reason. A failure is not kept: the next call tries again.
int cff_load_media_libraries(char *why, size_t capacity);

/// Routes FFmpeg's log through storyreel's watcher (LogWatch.c): messages at `shown` or more
/// severe go to FFmpeg's own printer (AV_LOG_QUIET: none), and the demuxer's "wrong sample
/// count" (a track's sample tables disagree, so its index ends early) is noted for the thread
/// that logged it. Call it once, before other threads start.
void cff_watch_log(int shown);

/// Forgets this thread's note of a "wrong sample count"; call it before opening a file.
void cff_clear_sample_count_fault(void);

/// Whether this thread's demuxer logged "wrong sample count" since the last clear; clears it.
bool cff_take_sample_count_fault(void);

#endif
