/* pmusim — a device's own run inputs: the run keys it registers.  Not
 * installed.
 *
 * What a run gives besides the signals (an instruction address, a branch,
 * a cache-line state ...) is read by one family's device only, so the
 * device defines it: a block type of its own (its *input block*), the
 * block with every input at its default, and a table of *run keys*, one per
 * `key=value` token of the stimulus (docs/stimulus-format.md): the key's
 * name, its parser (value text -> the key's field) and where that field
 * lies in the block.  The device keeps the current inputs in a block of its
 * state (SimDeviceOps.input); a stimulus run carries a block of its own,
 * copied over the device's before the run (sim_input_apply), and
 * pms_sim_set_input parses one key into the device's block directly.  The
 * generic code (sim_core.c, stimulus.c) never knows a field's meaning.
 *
 * Every key is one of two shapes, told by its entry:
 *  - a value (size bytes at offset): reset by copying the default block's;
 *  - a list (elem != 0: a SimList at offset): each token appends one
 *    element (at most `max` per run); reset: empty.
 * The stimulus format is one language for every model: a key of another
 * family's device is accepted on any model, its value checked and then
 * ignored, as a device that does not read an input ignores it. */
#pragma once

#include "sim_internal.h"
#include "stimulus.h"

/* A list input: n elements of the key's elem size, owned by the block. */
typedef struct {
    guint n;
    gpointer v;
} SimList;

/* A per-thread address (ip=, daddr=): thread t's when has[t]. */
typedef struct {
    gboolean has[PMS_SIM_MAX_THREADS];
    guint64 a[PMS_SIM_MAX_THREADS];
} SimThreadAddrs;

/* One number given at most once (dse=). */
typedef struct {
    gboolean has;
    guint64 v;
} SimOptValue;

/* value: the token's text after '='; field: the key's place in an input
 * block (a list key appends to its SimList).  The error (PMS_SIM_ERROR,
 * PMS_SIM_ERROR_STIMULUS) starts with the key's name and says what was
 * expected; the stimulus prefixes source:line. */
typedef gboolean (*SimKeyParseFn)(const PmsModel *m, const char *value, gpointer field, GError **error);

typedef struct {
    const char *name;
    SimKeyParseFn parse;
    gsize offset; /* of the field in the input block */
    gsize size;   /* of the field (a list: sizeof(SimList)) */
    gsize elem;   /* a list: the size of one element; 0: a value */
    guint max;    /* a list: at most max per run (message "KEY: at most MAX WHAT per run") */
    const char *max_what;
    /* a value (elem 0) given twice in one run is an error, "KEY: given twice
     * in one run", whatever the key: one rule for every value key */
    const char *twice_hint; /* appended to that message (NULL: nothing) */
} SimRunKey;

struct SimRunInputs {
    gsize size;           /* of the input block */
    const void *defaults; /* a block with every input at its default */
    const SimRunKey *keys;
    guint n_keys;
};

/* A device's record keywords of the stimulus (lines of their own, not run
 * tokens: the x86 core's ds, regs, expect-pebs, expect-record).  parse gets
 * the line's tokens (tok[0] the keyword) and returns the record or NULL with
 * *msg (g_free) saying what was expected; exec runs it in order with the
 * other records. */
struct SimStimRecordType {
    const char *name;
    PmsStimKind kind;
    gpointer (*parse)(const PmsModel *m, char **tok, guint n, char **msg);
    gboolean (*exec)(gconstpointer rec, PmsSim *sim, GError **error);
    void (*free)(gpointer rec);
};

/* Numbers as every stimulus token writes them: decimal or 0x hex (a leading
 * 0 is not octal); sim_parse_value also -N (two's complement), 2^K and
 * 2^K+-N (K < 64). */
gboolean sim_parse_u64(const char *s, guint64 *out);
/* The same for the n bytes at s (a part of a token: no NUL needed). */
gboolean sim_parse_u64_n(const char *s, gsize n, guint64 *out);
gboolean sim_parse_value(const char *s, guint64 *out);
/* Threads of the model's processor (2 with SMT). */
guint sim_input_threads(const PmsModel *m);
/* FALSE with PMS_SIM_ERROR_STIMULUS and the formatted message. */
gboolean sim_input_fail(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* Parsers shared by several devices' keys. */
gboolean sim_key_ip(const PmsModel *m, const char *value, gpointer field, GError **error);    /* SimThreadAddrs */
gboolean sim_key_daddr(const PmsModel *m, const char *value, gpointer field, GError **error); /* SimThreadAddrs */
gboolean sim_key_dse(const PmsModel *m, const char *value, gpointer field, GError **error);   /* SimOptValue */
/* A list key's parser: one more element (at most the key's max: checked by
 * the caller). */
void sim_list_append(SimList *l, gconstpointer elem, gsize size);

/* Block operations, generic over a device's keys. */
gpointer sim_input_new(const SimRunInputs *in); /* every input at its default */
void sim_input_free(const SimRunInputs *in, gpointer block);
void sim_input_clear(const SimRunInputs *in, gpointer block); /* back to the defaults */
void sim_input_reset_key(const SimRunKey *k, const SimRunInputs *in, gpointer block);
/* dst (a device's current inputs) takes src's every input (NULL: the
 * defaults). */
void sim_input_apply(const SimRunInputs *in, gpointer dst, gconstpointer src);
/* Before a run: the device's current inputs take `block` of inputs `in`
 * (a stimulus run's; NULL, or the inputs of another device: the
 * defaults). */
void sim_run_input(PmsSim *s, const SimRunInputs *in, gconstpointer block);
static inline gpointer sim_input_field(gpointer block, const SimRunKey *k)
{
    return (char *)block + k->offset;
}

/* The device's key `name`, NULL when it has none. */
const SimRunKey *sim_device_key(const SimDeviceOps *ops, const char *name);
/* The key `name` of the first device that has one (*owner: its inputs),
 * NULL when none has. */
const SimRunKey *sim_any_device_key(const char *name, const SimRunInputs **owner);
/* The field of the device's current inputs for key `name` (NULL: the
 * device has no such key): the typed setters' way in. */
gpointer sim_current_input(PmsSim *s, const char *name);
