/* pmusim — a set of an event's unit masks: bit i stands for event->umasks[i].
 *
 * Two 64-bit words, so up to PMS_UMASK_SET_MAX unit masks per event: icl's
 * OFFCORE_RESPONSE_0/1 and OCR have 71 (each a whole offcore request/response
 * value), more than one word holds.  The encoder, the program step and the
 * simulator pass these sets by value; every operation is inline and
 * branch-free or nearly so, since the encoder does several per string. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define PMS_UMASK_SET_MAX 128u

typedef struct {
    guint64 w[2]; /* w[0]: unit masks 0..63, w[1]: 64..127 */
} PmsUmaskSet;

#define PMS_UMASK_SET_EMPTY ((PmsUmaskSet){ { 0, 0 } })

/* {i}; i < PMS_UMASK_SET_MAX */
static inline PmsUmaskSet pms_uset_bit(guint i)
{
    PmsUmaskSet s = PMS_UMASK_SET_EMPTY;
    s.w[i >> 6] = G_GUINT64_CONSTANT(1) << (i & 63);
    return s;
}

/* {0 .. n-1}; n <= PMS_UMASK_SET_MAX */
static inline PmsUmaskSet pms_uset_first_n(guint n)
{
    PmsUmaskSet s;
    s.w[0] = n >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT(1) << n) - 1;
    s.w[1] = n <= 64 ? 0 : n >= 128 ? G_MAXUINT64 : (G_GUINT64_CONSTANT(1) << (n - 64)) - 1;
    return s;
}

static inline gboolean pms_uset_has(PmsUmaskSet s, guint i)
{
    return (s.w[i >> 6] >> (i & 63)) & 1;
}

static inline void pms_uset_add(PmsUmaskSet *s, guint i)
{
    s->w[i >> 6] |= G_GUINT64_CONSTANT(1) << (i & 63);
}

static inline void pms_uset_del(PmsUmaskSet *s, guint i)
{
    s->w[i >> 6] &= ~(G_GUINT64_CONSTANT(1) << (i & 63));
}

static inline gboolean pms_uset_empty(PmsUmaskSet s)
{
    return (s.w[0] | s.w[1]) == 0;
}

static inline gboolean pms_uset_eq(PmsUmaskSet a, PmsUmaskSet b)
{
    return ((a.w[0] ^ b.w[0]) | (a.w[1] ^ b.w[1])) == 0;
}

/* a & b not empty */
static inline gboolean pms_uset_meets(PmsUmaskSet a, PmsUmaskSet b)
{
    return ((a.w[0] & b.w[0]) | (a.w[1] & b.w[1])) != 0;
}

/* a is a subset of b */
static inline gboolean pms_uset_within(PmsUmaskSet a, PmsUmaskSet b)
{
    return ((a.w[0] & ~b.w[0]) | (a.w[1] & ~b.w[1])) == 0;
}

static inline PmsUmaskSet pms_uset_or(PmsUmaskSet a, PmsUmaskSet b)
{
    return (PmsUmaskSet){ { a.w[0] | b.w[0], a.w[1] | b.w[1] } };
}

static inline PmsUmaskSet pms_uset_and(PmsUmaskSet a, PmsUmaskSet b)
{
    return (PmsUmaskSet){ { a.w[0] & b.w[0], a.w[1] & b.w[1] } };
}

/* a without b */
static inline PmsUmaskSet pms_uset_andnot(PmsUmaskSet a, PmsUmaskSet b)
{
    return (PmsUmaskSet){ { a.w[0] & ~b.w[0], a.w[1] & ~b.w[1] } };
}

static inline guint pms_uset_count(PmsUmaskSet s)
{
    return (guint)(__builtin_popcountll(s.w[0]) + __builtin_popcountll(s.w[1]));
}

/* Two members or more (cheaper than a count). */
static inline gboolean pms_uset_several(PmsUmaskSet s)
{
    return ((s.w[0] & (s.w[0] - 1)) | (s.w[1] & (s.w[1] - 1))) != 0 || (s.w[0] && s.w[1]);
}

/* The lowest member of a non-empty set. */
static inline guint pms_uset_lowest(PmsUmaskSet s)
{
    return s.w[0] ? (guint)__builtin_ctzll(s.w[0]) : 64u + (guint)__builtin_ctzll(s.w[1]);
}

/* The highest member of a non-empty set. */
static inline guint pms_uset_highest(PmsUmaskSet s)
{
    return s.w[1] ? 127u - (guint)__builtin_clzll(s.w[1]) : 63u - (guint)__builtin_clzll(s.w[0]);
}

/* Removes and returns the lowest member of a non-empty set:
 *     for (PmsUmaskSet u = set; !pms_uset_empty(u);) { guint i = pms_uset_pop(&u); ... } */
static inline guint pms_uset_pop(PmsUmaskSet *s)
{
    if (s->w[0]) {
        guint i = (guint)__builtin_ctzll(s->w[0]);
        s->w[0] &= s->w[0] - 1;
        return i;
    }
    guint i = 64u + (guint)__builtin_ctzll(s->w[1]);
    s->w[1] &= s->w[1] - 1;
    return i;
}

G_END_DECLS
