/* pmusim — an output file written whole or not at all, as a stream: a
 * regular (or new) FILE is written into a temporary file beside it
 * (FILE.XXXXXX, same directory, so the rename is atomic) that commit renames
 * onto FILE; abort, or SIGINT, SIGTERM or SIGHUP meanwhile, removes it, so
 * no partial report and no stray temporary file is ever left.  "-" is
 * standard output; a device or a pipe (/dev/null, /dev/full, a FIFO) is
 * written in place, never replaced (renaming over /dev/null as root would
 * destroy it).  pms_cli_write_file writes a whole buffer through it. */
#pragma once

#include <glib.h>
#include <stdio.h>

typedef struct PmsOutFile PmsOutFile;

/* Where scratch files for FILE go (pms_spool_new): FILE's directory when it
 * is, or will be, a regular file; the temporary directory for "-", a device
 * or a pipe. */
char *pms_out_file_scratch_dir(const char *path);
/* Start writing path (not empty).  NULL with an error when it cannot be. */
PmsOutFile *pms_out_file_begin(const char *path, GError **error);
/* The stream to write to. */
FILE *pms_out_file_stream(PmsOutFile *o);
/* Finish: flush, and rename the temporary file onto the path.  FALSE with an
 * error when a write failed (the temporary file is then removed and the
 * path left as it was).  Frees o. */
gboolean pms_out_file_commit(PmsOutFile *o, GError **error);
/* Give up: the temporary file removed, the path left as it was.  Frees o. */
void pms_out_file_abort(PmsOutFile *o);
