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

#endif
