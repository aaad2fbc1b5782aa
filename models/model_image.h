/* pmusim models — the compiled image of a model (private to models/).
 *
 * Why: parsing the five built-in .pmu key files at every start-up cost ~4 ms
 * (GKeyFile, thousands of small strings and inserts).  At build time
 * pmusim-modelc loads each built-in .pmu with the normal loader (so the
 * built-ins are validated by exactly the code that reads user files) and
 * writes the resulting PmsModel as a flat image; the library embeds the images
 * (scripts/embed-resources.py) and pms_model_set_new_builtin deserializes
 * them.  The .pmu
 * files stay the source of truth; `--model FILE` still reads key files.
 *
 * Format (all integers little-endian, read byte by byte: no alignment needs):
 *   header   magic "PMSMODEL", then u32: version, total size, string-table
 *            offset and size, body offset and size, and the number of
 *            options, layouts, fields, registers, modifiers, events, umask
 *            groups, umasks and instances (totals over the model: they size
 *            its single allocation)
 *   strings  NUL-terminated strings, deduplicated; the table ends with a NUL
 *   body     the PmsModel's fields in a fixed order (model_image_write.c is
 *            the reference), strings as u32 offsets into the table
 *            (PMS_IMAGE_NONE for NULL), the register's layout as an index;
 *            an event of a family with per-event facts (family.h
 *            PmsEventFacts) is followed by them, a u32 per key in the
 *            family's table order.
 * The reader checks every size, offset, count, index and enum, so a damaged
 * image is a GError, never a crash.
 *
 * Adding a member to a model struct means: write it, read it, bump
 * PMS_IMAGE_VERSION, compare it in models/tests/test_image.c. */
#pragma once
#include <glib.h>
#include "model.h"

#define PMS_IMAGE_MAGIC "PMSMODEL"
#define PMS_IMAGE_MAGIC_LEN 8
/* 4: counter_base, Itanium event facts; 5: code_range; 6: family by name;
 * 7: instances; 8: [perf]; 9: a family's event facts by its table;
 * 11: a register's alias */
#define PMS_IMAGE_VERSION 11u
/* The header's 32-bit words after the magic, in file order (the reader and
 * the tests that damage an image name them). */
enum {
    H_VERSION,
    H_SIZE,
    H_STR_OFF,
    H_STR_LEN,
    H_BODY_OFF,
    H_BODY_LEN,
    H_OPTIONS,
    H_LAYOUTS,
    H_FIELDS,
    H_REGS,
    H_MODS,
    H_EVENTS,
    H_GROUPS,
    H_UMASKS,
    H_INSTANCES,
    H_N
};
#define PMS_IMAGE_HEADER_LEN (PMS_IMAGE_MAGIC_LEN + H_N * 4)
#define PMS_IMAGE_NONE G_MAXUINT32

/* Serialize a loaded model (build time: pmusim-modelc, and the tests). */
GBytes *pms_model_image_write(const PmsModel *m);

/* Deserialize; keeps a reference to `image`, whose bytes the model's strings
 * point into.  `name` is used in error messages only. */
PmsModel *pms_model_image_read(GBytes *image, const char *name, GError **error);

/* The PMU names an image provides, without reading the rest of it: the
 * model's name, or one name per instance of a model of several PMUs
 * (model.h, pms_model_view_new), in order; *views tells which (TRUE: the
 * names are views 0, 1, ...).  NULL with an error when the image is
 * damaged. */
GStrv pms_model_image_names(GBytes *image, const char *name, gboolean *views, GError **error);
