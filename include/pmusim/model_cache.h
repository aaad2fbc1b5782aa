/* pmusim — the caches a model carries for the layers above it: the
 * encoder's prepared facts (encoder/prepared.c) and the program step's
 * resolved registers (sim/program/program_*.c), each made once on first use.
 * Not installed (like embedded.h and reg_field.h): internal to the library,
 * used by modules that may include only the headers of include/pmusim/.
 *
 * Every model the library hands out (the loader's, the image reader's, a
 * view) is allocated by models/ as a PmsModelCached followed by what only
 * models/ reads (models/model_priv.h), so a PmsModel * is also the address
 * of its caches: reaching them costs no call, as before they left model.h. */
#pragma once

#include <glib.h>
#include "model.h"

typedef enum {
    PMS_MODEL_CACHE_ENCODER, /* the encoder's PmsPrepared */
    PMS_MODEL_CACHE_PROGRAM, /* the program step of the model's family */
    PMS_MODEL_N_CACHES
} PmsModelCacheSlot;

typedef struct {
    gpointer data;       /* NULL until made; never NULL after */
    GDestroyNotify free; /* called by pms_model_free when data is set */
} PmsModelCache;

/* The head of every model models/ allocates. */
typedef struct {
    PmsModel model;
    PmsModelCache cache[PMS_MODEL_N_CACHES];
} PmsModelCached;

typedef gpointer (*PmsModelCacheMake)(const PmsModel *m);

/* The model's cache in `slot`, made by make(m) (never NULL) the first time
 * and freed with free_fn with the model.  Thread-safe as model.h promises:
 * g_once_init_enter makes it once however many threads ask at first; later
 * calls are one atomic load. */
static inline gpointer pms_model_cache(const PmsModel *m, PmsModelCacheSlot slot, PmsModelCacheMake make,
                                       GDestroyNotify free_fn)
{
    /* the caches are the one mutable part of a model */
    PmsModelCache *c = &((PmsModelCached *)(gpointer)m)->cache[slot];
    if (g_once_init_enter(&c->data)) {
        gpointer p = make(m);
        c->free = free_fn;
        g_once_init_leave(&c->data, p);
    }
    return c->data;
}

/* The cache in `slot` if it was made, else NULL (makes nothing). */
static inline gpointer pms_model_cache_peek(const PmsModel *m, PmsModelCacheSlot slot)
{
    return g_atomic_pointer_get(&((PmsModelCached *)(gpointer)m)->cache[slot].data);
}
