/* pmusim — reading a stimulus file: lines in bounded chunks (the streaming
 * reader) and the whole text up to a size (the loader).  Not installed.
 *
 * Both check their limits and NUL bytes before they allocate more: a
 * stimulus line holds at most PMS_STIM_LINE_MAX bytes, a file read whole at
 * most PMS_TEXT_FILE_MAX, and /dev/zero is refused at its first byte, not
 * after the memory runs out.  A read or allocation failure is an error,
 * never the end of the input.  The errors: PMS_SIM_ERROR_INPUT for text
 * this reader does not take (a NUL byte, a line or file over its limit),
 * PMS_SIM_ERROR_STIMULUS for a file that cannot be opened or read. */
#pragma once

#include <glib.h>
#include "stimulus.h"

#define PMS_STIM_LINE_MAX (16u * 1024 * 1024)
/* Fields of one line (docs/stimulus-format.md): room for a run's 64
 * branches (PMS_SIM_MAX_BRANCHES) and its other tokens. */
#define PMS_STIM_MAX_FIELDS 256

struct PmsStimReader {
    int fd;
    gboolean own_fd;
    char *path;
    char *buf; /* unread bytes at [pos, len), capacity cap */
    gsize pos, len, cap;
    gsize checked; /* bytes from pos already searched (no '\n', no NUL) */
    gboolean eof;
    guint line;     /* lines handed out */
    char *last;     /* the last line handed out (NUL-terminated in buf) */
    gboolean again; /* hand `last` out once more (after pms_stim_reader_pmu) */
};

/* The next line (without its '\n', NUL-terminated, writable until the next
 * call) in *line, NULL at the end; FALSE on an error. */
gboolean stim_reader_next(PmsStimReader *r, char **line, GError **error);

/* The whole file, at most max bytes (a regular file larger than that is
 * refused by its size, before a byte is read), without NUL bytes. */
gboolean stim_read_whole(const char *path, gsize max, char **text, gsize *len, GError **error);
