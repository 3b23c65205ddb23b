/*
 * Double-dummy search for Preferans (three active hands, all cards open).
 *
 * The value of a position is the number of tricks the *focus* player (the
 * declarer, or on all-pass the player whose tricks are asked) takes from
 * the current trick on.  One side maximises it: the focus player in a trick
 * game, his two opponents in misère and on all-pass (rules.md §6–§8).
 *
 * The search is a boolean "can the maximising side reach >= target?" search
 * (a null window), driven to the exact value by MTD(f)-style stepping.  The
 * transposition table is probed only at trick boundaries, where the state is
 * just the three hands, the leader and the talon stage.
 */
#define _DEFAULT_SOURCE /* madvise */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define SUIT(c) ((c) >> 3)
#define SMASK(s) (0xFFu << (8 * (s)))
/* Without -mpopcnt, __builtin_popcount is a library call; this is inline. */
static inline int POP(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

enum { GOAL_TRICKS = 0, GOAL_MISERE = 1, GOAL_ALLPASS = 2 };

/* Flags switch techniques off, so the benchmark can measure what each buys. */
enum {
    F_NO_TT = 1,
    F_NO_EQUIV = 2,
    F_NO_BOUNDS = 4,
    F_NO_ORDER = 8,
    F_NO_LAST = 16,
    F_BISECT = 32, /* bisection driver instead of MTD(f) stepping */
    F_NO_REL = 64, /* key the table by absolute, not relative, ranks */
};

/* REPS[h][l]: of the cards h of one suit (h a subset of the live cards l),
 * the highest card of every run of h that no live card outside h splits.
 * Cards of one run are interchangeable, so only one of them is searched. */
static uint8_t REPS[256][256];

/* SQUEEZE[h][l]: the cards h (a subset of the live cards l of one suit) with
 * the cards not in l squeezed out.  A position's value depends only on who
 * holds which *relative* rank, so squeezed hands make a canonical table key:
 * positions that differ only in which small cards are gone share an entry. */
static uint8_t SQUEEZE[256][256];

/* DUCKS[f][o], for the cards f of one player and o of his opponents in one
 * suit (no trumps): bit 1 — his i-th lowest card is below their i-th lowest
 * for every i up to the shorter holding, so he can play under every lead of
 * theirs in the suit, whatever they lead or throw away (see never_wins); bit 2
 * — besides, he holds a lead below all their cards whose removal keeps bit 1. */
static uint8_t DUCKS[256][256];

static void init_reps(void)
{
    for (int l = 0; l < 256; l++) {
        for (int h = l;; h = (h - 1) & l) {
            int prev_in_h = 0, out = 0;
            for (int r = 7; r >= 0; r--) {
                if (!(l >> r & 1))
                    continue; /* played cards do not split a run */
                int in_h = h >> r & 1;
                if (in_h && !prev_in_h)
                    out |= 1 << r;
                prev_in_h = in_h;
            }
            REPS[h][l] = (uint8_t)out;
            int sq = 0, j = 0;
            for (int r = 0; r < 8; r++)
                if (l >> r & 1)
                    sq |= (h >> r & 1) << j++;
            SQUEEZE[h][l] = (uint8_t)sq;
            if (h == 0)
                break;
        }
    }
    for (int f = 0; f < 256; f++)
        for (int o = 0; o < 256; o++) {
            int ok = 1, fi = f, oi = o;
            while (fi && oi && ok) { /* pair off the lowest cards */
                ok = __builtin_ctz(fi) < __builtin_ctz(oi);
                fi &= fi - 1;
                oi &= oi - 1;
            }
            DUCKS[f][o] = (uint8_t)ok;
        }
    for (int f = 0; f < 256; f++)
        for (int o = 1; o < 256; o++)
            for (int d = f; d; d &= d - 1) {
                int x = __builtin_ctz(d);
                if ((1 << x) < (o & -o) && (DUCKS[f & ~(1 << x)][o] & 1))
                    DUCKS[f][o] |= 2;
            }
}

/* ---- transposition table ------------------------------------------------ */

typedef struct {
    uint32_t h0, h1, h2;
    uint16_t gen;  /* entry is valid only when gen == the table's current gen */
    uint8_t meta;  /* leader | talon stage << 2 | cards per hand << 4 */
    uint8_t lohi;  /* lower bound | upper bound << 4 */
} Entry;

#define BUCKET 4 /* 4 x 16 bytes = one cache line */

typedef struct {
    PyObject_HEAD
    Entry *tt;
    size_t nbuckets; /* a power of two */
    uint16_t gen;
    int busy;
    unsigned long long nodes;
    /* the configuration the table's entries were computed for */
    int cfg_valid, cfg_trump, cfg_goal, cfg_focus, cfg_mode;
    int cfg_talon[2], cfg_ntalon;
    struct SelfishEntry *stt; /* the all-pass max-n table (selfish_many), made on first use */
} Engine;

static void bump_generation(Engine *e)
{
    e->gen++;
    if (e->gen == 0) { /* wrapped: old entries could look current again */
        memset(e->tt, 0, e->nbuckets * BUCKET * sizeof(Entry));
        e->gen = 1;
    }
}

static inline size_t tt_index(const Engine *e, uint32_t h0, uint32_t h1, uint32_t h2, int meta)
{
    uint64_t x = ((uint64_t)h0 << 32 | h1) * 0x9E3779B97F4A7C15ull;
    x ^= ((uint64_t)h2 << 8 | (uint64_t)meta) * 0xC2B2AE3D27D4EB4Full;
    x ^= x >> 31;
    return (size_t)x & (e->nbuckets - 1);
}

/* ---- search context ----------------------------------------------------- */

typedef struct {
    uint32_t hand[3];
    int trump; /* -1: none */
    int goal, focus;
    int participates; /* all-pass: the talon card can win its trick */
    int talon[2], ntalon, tidx; /* tidx: talon cards already used up */
    /* the current trick */
    int leader, k;   /* players' cards already played this trick */
    int led, best, who; /* led suit, winning card, its player (-1: talon / nobody) */
    uint32_t table;  /* cards on the table that still compete */
    int flags;
    Engine *e;
    unsigned long long nodes;
} Ctx;

static int boundary(Ctx *c, int target);
static int trick_node(Ctx *c, int target);

/* The maximising side (it wants the focus player's tricks high). */
static inline int is_max(const Ctx *c, int p)
{
    return (p == c->focus) == (c->goal == GOAL_TRICKS);
}

/* Set up the led suit and the talon card of a trick that is about to start. */
static void start_trick(Ctx *c)
{
    c->k = 0;
    c->table = 0;
    c->led = c->best = c->who = -1;
    if (c->tidx < c->ntalon) { /* rules.md §8.2: a talon card leads tricks 1 and 2 */
        int t = c->talon[c->tidx];
        c->led = SUIT(t);
        c->leader = 0; /* first hand plays first on a talon trick */
        if (c->participates) { /* 4 players: the dealer's card can win, Kodeks 3.7.6.1 */
            c->best = t;
            c->table = 1u << t;
        }
    }
}

/* Put card x of player p on the table (trick state only; the hand is the caller's). */
static inline void add_card(Ctx *c, int p, int x)
{
    if (c->led < 0) {
        c->led = SUIT(x);
        c->best = x;
        c->who = p;
    } else if (c->best < 0) {
        /* 3-player all-pass talon trick: the talon names the suit only (rules.md §8.2) */
        if (SUIT(x) == c->led) {
            c->best = x;
            c->who = p;
        }
    } else if (SUIT(x) == SUIT(c->best) ? x > c->best : SUIT(x) == c->trump) {
        c->best = x; /* rules.md §6: highest trump, else highest of the led suit */
        c->who = p;
    }
    c->table |= 1u << x;
    c->k++;
}

static inline uint32_t legal_cards(const Ctx *c, int p)
{
    uint32_t h = c->hand[p];
    if (c->led < 0)
        return h;
    uint32_t f = h & SMASK(c->led); /* rules.md §6: follow suit, */
    if (f)
        return f;
    if (c->trump >= 0 && (h & SMASK(c->trump))) /* else trump when holding one */
        return h & SMASK(c->trump);
    return h;
}

static inline uint32_t live_cards(const Ctx *c)
{
    uint32_t live = c->hand[0] | c->hand[1] | c->hand[2] | c->table;
    if (c->participates)
        for (int i = c->tidx + 1; i < c->ntalon; i++) /* talon cards still to come */
            live |= 1u << c->talon[i];
    return live;
}

static inline uint32_t representatives(const Ctx *c, uint32_t legal)
{
    if (c->flags & F_NO_EQUIV)
        return legal;
    uint32_t live = live_cards(c), out = 0;
    for (uint32_t m = legal; m; m &= ~SMASK(SUIT(__builtin_ctz(m)))) {
        int sh = SUIT(__builtin_ctz(m)) * 8;
        out |= (uint32_t)REPS[legal >> sh & 0xFF][live >> sh & 0xFF] << sh;
    }
    return out;
}

static inline int top_card(uint32_t m) { return 31 - __builtin_clz(m); }
static inline int low_card(uint32_t m) { return __builtin_ctz(m); }

/* Misère / all-pass: card x of the focus player p is one of those that keep
 * his cards of its suit from pairing under the others' (see never_wins). */
static inline int breaks_pairing(const Ctx *c, int p, int x)
{
    int sh = SUIT(x) * 8;
    uint32_t mine = c->hand[p] >> sh & ((2u << (x & 7)) - 1);
    uint32_t theirs = (c->hand[(p + 1) % 3] | c->hand[(p + 2) % 3]) >> sh & 0xFF;
    return theirs && !(DUCKS[mine][theirs] & 1);
}

/* Move ordering: a score per card, higher first.  Cheap rules of thumb; the
 * benchmark measures what they buy against plain high-to-low order. */
static int order_moves(const Ctx *c, int p, uint32_t moves, int *out)
{
    int n = 0, score[32];
    int trick_goal = c->goal == GOAL_TRICKS;
    if (!(moves & (moves - 1))) { /* a single card: nothing to order */
        out[0] = low_card(moves);
        return 1;
    }
    for (uint32_t m = moves; m; m &= m - 1) {
        int x = low_card(m), s = SUIT(x), r = x & 7, sc;
        if (c->flags & F_NO_ORDER) {
            sc = x;
        } else if (c->led < 0) { /* leading */
            uint32_t fs = c->hand[c->focus] & SMASK(s);
            if (trick_goal) {
                /* measured on the benchmark deals: the highest rank first
                 * beats "cash sure winners, then low cards" */
                sc = r;
            } else if (p == c->focus) {
                /* first the cards that break his pairing under the others'
                 * (never_wins), then the card above most of the others' cards
                 * of its suit (measured: 6 % fewer misère nodes than the highest
                 * rank first, which beat "lead the safest low card") */
                uint32_t os = (c->hand[(p + 1) % 3] | c->hand[(p + 2) % 3]) & SMASK(s);
                sc = POP(os & ((1u << x) - 1)) * 8 + r + (breaks_pairing(c, p, x) ? 100 : 0);
            } else if (!fs) {
                sc = 50 - r;
            } else if (x < low_card(fs)) {
                /* catch: lead low into a suit where the focus cannot duck,
                 * best where the partner can stay under him too */
                uint32_t ps = c->hand[3 - p - c->focus] & SMASK(s);
                sc = (!ps || low_card(ps) < low_card(fs) ? 300 : 200) - r;
            } else {
                sc = 100 - r;
            }
        } else { /* following: judge by who wins the trick so far with x */
            int who = c->who, best = c->best;
            if (best < 0 ? SUIT(x) == c->led
                         : (SUIT(x) == SUIT(best) ? x > best : SUIT(x) == c->trump))
                who = p;
            int good = is_max(c, p) ? who == c->focus : who != c->focus;
            if (trick_goal)
                /* win cheaply, or let the partner's card stand and discard low */
                sc = good * 100 + 7 - r + (who == p ? 0 : 10 * good);
            else if (p == c->focus) {
                /* highest rank first (measured, as for his leads); void, first
                 * the cards that break his pairing under theirs (never_wins) */
                sc = r;
                if (SUIT(x) != c->led && breaks_pairing(c, p, x))
                    sc += 100;
            }
            else if ((c->focus - c->leader + 3) % 3 > c->k) {
                /* the focus plays after me: go low and make him win; void,
                 * throw first the cards useless for catching him (above all
                 * of his in their suit) */
                uint32_t f = c->hand[c->focus] & SMASK(s);
                sc = SUIT(x) == c->led ? 7 - r : !f || x > top_card(f) ? 100 + r : r;
            } else
                sc = good * 100 + r; /* keep him winning, shedding high cards */
        }
        score[n] = sc;
        out[n++] = x;
    }
    for (int i = 1; i < n; i++) { /* insertion sort, n <= 10 */
        int x = out[i], sc = score[i], j = i - 1;
        while (j >= 0 && score[j] < sc) {
            out[j + 1] = out[j];
            score[j + 1] = score[j];
            j--;
        }
        out[j + 1] = x;
        score[j + 1] = sc;
    }
    return n;
}

/* Inside a trick: the player to move tries each distinct legal card. */
static int trick_node(Ctx *c, int target)
{
    int p = c->leader + c->k;
    if (p >= 3)
        p -= 3;
    int moves[32];
    int n = order_moves(c, p, representatives(c, legal_cards(c, p)), moves);
    int maxing = is_max(c, p);
    int k = c->k, led = c->led, best = c->best, who = c->who, leader = c->leader, tidx = c->tidx;
    uint32_t table = c->table;
    c->nodes++;
    for (int i = 0; i < n; i++) {
        int x = moves[i], r;
        c->hand[p] ^= 1u << x;
        add_card(c, p, x);
        if (c->k < 3) {
            r = trick_node(c, target);
        } else {
            int w = c->who;
            c->leader = w; /* rules.md §6: the winner leads; talon tricks reset it */
            if (c->tidx < c->ntalon)
                c->tidx++;
            start_trick(c);
            if (c->tidx >= c->ntalon && tidx < c->ntalon)
                c->leader = 0; /* rules.md §8.2: trick 3 is led by first hand */
            r = boundary(c, target - (w == c->focus));
        }
        c->hand[p] ^= 1u << x;
        c->k = k; c->led = led; c->best = best; c->who = who;
        c->leader = leader; c->tidx = tidx; c->table = table;
        if (r == maxing)
            return r; /* cut-off */
    }
    return !maxing;
}

/* Tricks the player on lead takes by cashing top cards, whatever the others do. */
static int sure_tricks(const Ctx *c, int p)
{
    uint32_t me = c->hand[p], a = c->hand[(p + 1) % 3], b = c->hand[(p + 2) % 3];
    int runs = 0, t = c->trump;
    for (int s = 0; s < 4; s++) {
        uint32_t m = me & SMASK(s), o = (a | b) & SMASK(s);
        if (m)
            runs += o ? POP(m & ~((2u << top_card(o)) - 1)) : POP(m);
    }
    if (t < 0)
        return runs;
    uint32_t T = SMASK(t), mt = me & T, ot = (a | b) & T;
    if (!ot)
        return runs; /* nobody can ruff */
    int trun = mt ? POP(mt & ~((2u << top_card(ot)) - 1)) : 0;
    int ta = POP(a & T), tb = POP(b & T);
    /* drawing trumps with the top run leaves the others without trumps */
    if ((ta > tb ? ta : tb) <= trun)
        return runs;
    return trun;
}

/* Misère / all-pass: the focus player can never be made to win a trick when
 * he can play under every lead of theirs in each suit (DUCKS bit 1): he plays
 * his highest card below the highest card on the table, and when void throws
 * his highest card of any suit; either keeps the pairing of DUCKS, and so do
 * the cards the others play or throw (theirs only grow when one is removed).
 * Winning nothing, he never leads again.  On lead he needs a lead below all
 * of their cards of its suit (one of them holds the suit and must beat it)
 * that keeps the pairing (bit 2).  This includes the plain case: all his
 * cards below all of theirs in every suit. */
static int never_wins(const Ctx *c)
{
    uint32_t f = c->hand[c->focus], o = c->hand[(c->focus + 1) % 3] | c->hand[(c->focus + 2) % 3];
    int can_lose_lead = c->leader != c->focus;
    for (int s = 0; s < 32; s += 8) {
        uint32_t fs = f >> s & 0xFF, os = o >> s & 0xFF;
        if (fs && os) {
            int d = DUCKS[fs][os];
            if (!(d & 1))
                return 0;
            if (d & 2)
                can_lose_lead = 1;
        }
    }
    return can_lose_lead;
}

/* Misère / all-pass: the focus player on lead takes every trick when each
 * opponent can play under every lead of his (DUCKS bit 1 with the roles
 * turned round): whatever he leads, both stay under it or throw their highest
 * card of another suit, so he wins and leads again.  This includes the plain
 * case: all his cards above all of theirs in their suits. */
static int wins_all(const Ctx *c)
{
    uint32_t f = c->hand[c->focus], a = c->hand[(c->focus + 1) % 3], b = c->hand[(c->focus + 2) % 3];
    for (int s = 0; s < 32; s += 8) {
        uint32_t fs = f >> s & 0xFF;
        if (fs && !(DUCKS[a >> s & 0xFF][fs] & DUCKS[b >> s & 0xFF][fs] & 1))
            return 0;
    }
    return 1;
}

/* At the start of a trick (talon card, if any, already set up by start_trick). */
static int boundary(Ctx *c, int target)
{
    int n = POP(c->hand[0]);
    if (target <= 0)
        return 1;
    if (target > n)
        return 0;
    if (n == 1 && !(c->flags & F_NO_LAST)) {
        /* closed form: every card is forced */
        int k = c->k, led = c->led, best = c->best, who = c->who;
        uint32_t table = c->table;
        for (int i = 0; i < 3; i++) {
            int p = (c->leader + i) % 3;
            add_card(c, p, low_card(c->hand[p]));
        }
        int w = c->who;
        c->k = k; c->led = led; c->best = best; c->who = who; c->table = table;
        c->nodes++;
        return w == c->focus;
    }
    int talon_trick = c->tidx < c->ntalon;
    Engine *e = c->e;
    Entry *bucket = NULL;
    int meta = c->leader | c->tidx << 2 | n << 4;
    uint32_t h0 = c->hand[0], h1 = c->hand[1], h2 = c->hand[2];
    if (!talon_trick && !(c->flags & F_NO_REL)) {
        uint32_t live = h0 | h1 | h2, k0 = 0, k1 = 0, k2 = 0;
        for (int s = 0; s < 32; s += 8) {
            uint32_t l = live >> s & 0xFF;
            k0 |= (uint32_t)SQUEEZE[h0 >> s & 0xFF][l] << s;
            k1 |= (uint32_t)SQUEEZE[h1 >> s & 0xFF][l] << s;
            k2 |= (uint32_t)SQUEEZE[h2 >> s & 0xFF][l] << s;
        }
        h0 = k0; h1 = k1; h2 = k2;
    }
    if (!(c->flags & F_NO_TT)) {
        /* the bucket is a random memory access: start loading it now and
         * check the cheap bounds meanwhile */
        bucket = e->tt + tt_index(e, h0, h1, h2, meta) * BUCKET;
        __builtin_prefetch(bucket);
    }
    if (!talon_trick && !(c->flags & F_NO_BOUNDS)) {
        if (c->goal == GOAL_TRICKS) {
            int q = sure_tricks(c, c->leader);
            if (c->leader == c->focus ? q >= target : n - q < target)
                return c->leader == c->focus;
        } else if (never_wins(c)) {
            return 0; /* target >= 1 here */
        } else if (c->leader == c->focus && wins_all(c)) {
            return 1;
        }
    }
    if (bucket) {
        for (int i = 0; i < BUCKET; i++) {
            Entry *en = bucket + i;
            if (en->gen == e->gen && en->h0 == h0 && en->h1 == h1 && en->h2 == h2 && en->meta == meta) {
                if ((en->lohi & 15) >= target)
                    return 1;
                if ((en->lohi >> 4) < target)
                    return 0;
                break;
            }
        }
    }
    int r = trick_node(c, target);
    if (bucket) {
        Entry *slot = NULL;
        for (int i = 0; i < BUCKET && !slot; i++) {
            Entry *en = bucket + i;
            if (en->gen == e->gen && en->h0 == h0 && en->h1 == h1 && en->h2 == h2 && en->meta == meta)
                slot = en;
        }
        if (!slot) { /* replace a stale entry, else the one with fewest cards */
            slot = bucket;
            for (int i = 0; i < BUCKET; i++) {
                Entry *en = bucket + i;
                if (en->gen != e->gen) {
                    slot = en;
                    break;
                }
                if ((en->meta >> 4) < (slot->meta >> 4))
                    slot = en;
            }
            slot->h0 = h0; slot->h1 = h1; slot->h2 = h2;
            slot->meta = (uint8_t)meta;
            slot->gen = e->gen;
            slot->lohi = (uint8_t)(0 | n << 4);
        }
        int lo = slot->lohi & 15, hi = slot->lohi >> 4;
        if (r && target > lo)
            lo = target;
        if (!r && target - 1 < hi)
            hi = target - 1;
        slot->lohi = (uint8_t)(lo | hi << 4);
    }
    return r;
}

static int ge(Ctx *c, int target)
{
    if (c->k == 0)
        return boundary(c, target);
    if (target <= 0)
        return 1;
    if (target > POP(c->hand[(c->leader + c->k) % 3]))
        return 0;
    return trick_node(c, target);
}

/* The exact value: null-window tests stepped from a guess (MTD(f)). */
static int exact(Ctx *c, int guess)
{
    int lo = 0, hi = POP(c->hand[(c->leader + c->k) % 3]);
    int g = guess;
    while (lo < hi) {
        int t = (c->flags & F_BISECT) ? (lo + hi + 1) / 2 : g;
        if (t <= lo)
            t = lo + 1;
        if (t > hi)
            t = hi;
        if (ge(c, t)) {
            lo = t;
            g = t + 1;
        } else {
            hi = t - 1;
            g = t - 1;
        }
    }
    return lo;
}

/* A first guess for the driver: the quick tricks of the focus player.  In
 * misère 0: measured, starting from the declarer's holes (his i-th lowest
 * card above more than i of the others' cards) costs 17 % more nodes, since
 * the cheap tests are the successful ones below the value. */
static int guess_value(const Ctx *c)
{
    int n = POP(c->hand[(c->leader + c->k) % 3]);
    if (c->goal == GOAL_TRICKS)
        return (sure_tricks(c, c->focus) + n + 1) / 2;
    return 0;
}

/* ---- Python glue -------------------------------------------------------- */

static int read_cards(PyObject *seq, int *out, int max, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) {
        PyErr_Format(PyExc_ValueError, "%s: at most %d cards", what, max);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v < 0 || v > 31) {
            PyErr_Format(PyExc_ValueError, "%s: card id %ld is not in 0..31", what, v);
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

static char *KWLIST[] = {"hands", "leader", "trick", "trump", "goal", "focus",
                          "talon", "participates", "target", "flags", NULL};

/* Parse the arguments shared by every call; ``hands_o`` is left for the caller
 * (one (h0, h1, h2) tuple, or a sequence of them for the batch calls). */
static int parse_common(PyObject *args, PyObject *kw, PyObject **hands_o, Ctx *c, int *trick,
                        int *ntrick, int *target)
{
    int leader, trump, goal, focus, participates = 0, flags = 0;
    PyObject *trick_o, *talon_o;
    *target = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OiOiiiO|pii", KWLIST, hands_o, &leader,
                                     &trick_o, &trump, &goal, &focus, &talon_o, &participates,
                                     target, &flags))
        return -1;
    memset(c, 0, sizeof *c);
    if ((*ntrick = read_cards(trick_o, trick, 2, "trick")) < 0)
        return -1;
    if ((c->ntalon = read_cards(talon_o, c->talon, 2, "talon")) < 0)
        return -1;
    if (leader < 0 || leader > 2 || focus < 0 || focus > 2 || trump < -1 || trump > 3 ||
        goal < 0 || goal > 2) {
        PyErr_SetString(PyExc_ValueError, "leader/focus must be 0..2, trump -1..3, goal 0..2");
        return -1;
    }
    c->trump = trump; c->goal = goal; c->focus = focus; c->flags = flags;
    c->participates = participates;
    c->leader = c->ntalon ? 0 : leader;
    return 0;
}

static int read_hands(PyObject *o, uint32_t *h)
{
    unsigned int h0, h1, h2;
    if (!PyTuple_Check(o) || !PyArg_ParseTuple(o, "III", &h0, &h1, &h2)) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "hands: a tuple of three card masks");
        }
        return -1;
    }
    h[0] = h0; h[1] = h1; h[2] = h2;
    return 0;
}

/* Deal the hands into a context made by parse_common and put the trick's cards
 * on the table; 0, or -1 with the problem written to ``err`` (no Python call:
 * the batch calls run this without the GIL). */
static int place(Ctx *c, const uint32_t *h, const int *trick, int ntrick, const char **err)
{
    c->hand[0] = h[0]; c->hand[1] = h[1]; c->hand[2] = h[2];
    c->nodes = 0;
    c->tidx = 0;
    uint32_t seen = 0;
    for (int i = 0; i < 3; i++) {
        if (seen & c->hand[i])
            goto overlap;
        seen |= c->hand[i];
    }
    for (int i = 0; i < c->ntalon; i++) {
        if (seen & (1u << c->talon[i]))
            goto overlap;
        seen |= 1u << c->talon[i];
    }
    start_trick(c);
    for (int i = 0; i < ntrick; i++) {
        if (seen & (1u << trick[i]))
            goto overlap;
        seen |= 1u << trick[i];
        add_card(c, (c->leader + i) % 3, trick[i]);
    }
    /* every player who has not played this trick holds one card more */
    int n = POP(c->hand[(c->leader + ntrick) % 3]);
    for (int i = 0; i < 3; i++)
        if (POP(c->hand[(c->leader + i) % 3]) != n - (i < ntrick)) {
            *err = "hand sizes do not match the cards on the table";
            return -1;
        }
    if (n > 15) {
        *err = "at most 15 cards per hand";
        return -1;
    }
    return 0;
overlap:
    *err = "a card appears twice";
    return -1;
}

/* Take the engine for one call (single or batch); entries of its table stay
 * valid while the rules of the search stay the same, so the layouts of one
 * decision share the table. */
static int claim(Engine *self, Ctx *c)
{
    if (self->busy || !self->tt) {
        PyErr_SetString(PyExc_RuntimeError, "engine is in use by another thread");
        return -1;
    }
    if (!self->cfg_valid || self->cfg_trump != c->trump || self->cfg_goal != c->goal ||
        self->cfg_focus != c->focus || self->cfg_mode != c->participates ||
        self->cfg_ntalon != c->ntalon ||
        (c->ntalon > 0 && self->cfg_talon[0] != c->talon[0]) ||
        (c->ntalon > 1 && self->cfg_talon[1] != c->talon[1])) {
        bump_generation(self);
        self->cfg_valid = 1;
        self->cfg_trump = c->trump; self->cfg_goal = c->goal; self->cfg_focus = c->focus;
        self->cfg_mode = c->participates; self->cfg_ntalon = c->ntalon;
        self->cfg_talon[0] = c->talon[0]; self->cfg_talon[1] = c->talon[1];
    }
    c->e = self;
    self->busy = 1;
    return 0;
}

/* One position of a single call: parsed, placed and the engine claimed. */
static int setup(Engine *self, PyObject *args, PyObject *kw, Ctx *c, int *target)
{
    PyObject *hands_o;
    int trick[3], ntrick;
    uint32_t h[3];
    const char *err = NULL;
    if (parse_common(args, kw, &hands_o, c, trick, &ntrick, target) < 0 || read_hands(hands_o, h) < 0)
        return -1;
    if (place(c, h, trick, ntrick, &err) < 0) {
        PyErr_SetString(PyExc_ValueError, err);
        return -1;
    }
    return claim(self, c);
}

static int value_of(Ctx *c, int target)
{
    return target >= 0 ? ge(c, target) : exact(c, guess_value(c));
}

static PyObject *Engine_solve(Engine *self, PyObject *args, PyObject *kw)
{
    Ctx c;
    int target, r;
    if (setup(self, args, kw, &c, &target) < 0)
        return NULL;
    Py_BEGIN_ALLOW_THREADS
    r = value_of(&c, target);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    self->nodes += c.nodes;
    if (target >= 0)
        return PyBool_FromLong(r);
    return PyLong_FromLong(r);
}

/* The value of every legal card of the player to move: cards and values into
 * the arrays, their number returned (cards high to low within a suit). */
static int card_values(Ctx *c, int *cards, int *values)
{
    int n = 0;
    int p = (c->leader + c->k) % 3;
    uint32_t legal = legal_cards(c, p), reps = representatives(c, legal);
    uint32_t live = live_cards(c);
    int rep_value[32];
    int k = c->k, led = c->led, best = c->best, who = c->who, leader = c->leader, tidx = c->tidx;
    uint32_t table = c->table;
    /* each card's search starts from the value of the card before: siblings'
     * values are close, so the driver needs fewer tests (measured: best_moves
     * −2 % nodes in misère, −3 % trump, −10 % no-trump; values unchanged) */
    int prev = -1;
    for (uint32_t m = reps; m; m &= m - 1) {
        int x = low_card(m), v;
        c->hand[p] ^= 1u << x;
        add_card(c, p, x);
        if (c->k < 3) {
            v = exact(c, prev >= 0 ? prev : guess_value(c));
        } else {
            int w = c->who;
            c->leader = w;
            if (c->tidx < c->ntalon)
                c->tidx++;
            start_trick(c);
            if (c->tidx >= c->ntalon && tidx < c->ntalon)
                c->leader = 0;
            int g = prev >= 0 ? prev - (w == c->focus) : guess_value(c);
            v = (w == c->focus) + exact(c, g < 0 ? 0 : g);
        }
        c->hand[p] ^= 1u << x;
        c->k = k; c->led = led; c->best = best; c->who = who;
        c->leader = leader; c->tidx = tidx; c->table = table;
        rep_value[x] = v;
        prev = v;
    }
    /* a card takes the value of the top of its run (high to low within a suit) */
    for (int s = 0; s < 4; s++) {
        int rep = -1;
        for (int r = 7; r >= 0; r--) {
            int x = 8 * s + r;
            if (!(live >> x & 1))
                continue;
            if (!(legal >> x & 1)) {
                rep = -1;
                continue;
            }
            if (reps >> x & 1)
                rep = x;
            cards[n] = x;
            values[n++] = rep_value[rep];
        }
    }
    return n;
}

static PyObject *pairs_list(const int *cards, const int *values, int n)
{
    PyObject *out = PyList_New(n);
    if (!out)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *t = Py_BuildValue("(ii)", cards[i], values[i]);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, t);
    }
    return out;
}

static PyObject *Engine_moves(Engine *self, PyObject *args, PyObject *kw)
{
    Ctx c;
    int target, cards[32], values[32], n;
    if (setup(self, args, kw, &c, &target) < 0)
        return NULL;
    Py_BEGIN_ALLOW_THREADS
    n = card_values(&c, cards, values);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    self->nodes += c.nodes;
    return pairs_list(cards, values, n);
}

/* ---- batches: many layouts, each with its own cards on the table --------- */

/* One layout of a batch: the three hands and, when it has them, its own leader
 * and cards on the table (else the call's shared ``leader`` and ``trick``). */
typedef struct {
    uint32_t h[3];
    int leader, ntrick, trick[3];
} Layout;

/* A card mask of a layout item (0..2^32-1), or -1 with the error set. */
static int read_mask(PyObject *o, uint32_t *out)
{
    unsigned long v = PyLong_AsUnsignedLong(o);
    if (v == (unsigned long)-1 && PyErr_Occurred())
        return -1;
    if (v > 0xFFFFFFFFul) {
        PyErr_SetString(PyExc_ValueError, "hands: a card mask is 32 bits");
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

/* Read one item: (h0, h1, h2) or (h0, h1, h2, leader, trick).  Read by hand, not
 * with PyArg_ParseTuple: on 4-5-card endings the reading is a fair part of the call. */
static int read_layout(PyObject *o, const Ctx *proto, const int *trick, int ntrick, Layout *out)
{
    Py_ssize_t size = PyTuple_Check(o) ? PyTuple_GET_SIZE(o) : 0;
    if (size != 3 && size != 5) {
        PyErr_SetString(PyExc_TypeError,
                        "hands: a sequence of (h0, h1, h2) or (h0, h1, h2, leader, trick) tuples");
        return -1;
    }
    for (int i = 0; i < 3; i++)
        if (read_mask(PyTuple_GET_ITEM(o, i), out->h + i) < 0)
            return -1;
    if (size == 3) {
        out->leader = proto->leader;
        out->ntrick = ntrick;
        memcpy(out->trick, trick, sizeof(int) * 3);
        return 0;
    }
    long leader = PyLong_AsLong(PyTuple_GET_ITEM(o, 3));
    if (leader == -1 && PyErr_Occurred())
        return -1;
    if (leader < 0 || leader > 2) {
        PyErr_SetString(PyExc_ValueError, "leader must be 0..2");
        return -1;
    }
    /* as in a single call: with talon leads left, first hand leads */
    out->leader = proto->ntalon ? 0 : (int)leader;
    PyObject *t = PyTuple_GET_ITEM(o, 4);
    if (PyTuple_Check(t) && PyTuple_GET_SIZE(t) == 0) {
        out->ntrick = 0;
        return 0;
    }
    return (out->ntrick = read_cards(t, out->trick, 2, "trick")) < 0 ? -1 : 0;
}

/* Read a sequence of layouts into a new array. */
static Layout *read_layouts(PyObject *seq, const Ctx *proto, const int *trick, int ntrick, Py_ssize_t *n)
{
    PyObject *fast = PySequence_Fast(seq, "hands: a sequence of (h0, h1, h2) tuples");
    if (!fast)
        return NULL;
    *n = PySequence_Fast_GET_SIZE(fast);
    Layout *h = PyMem_Malloc(sizeof(Layout) * (size_t)(*n ? *n : 1));
    if (!h) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < *n; i++)
        if (read_layout(PySequence_Fast_GET_ITEM(fast, i), proto, trick, ntrick, h + i) < 0) {
            Py_DECREF(fast);
            PyMem_Free(h);
            return NULL;
        }
    Py_DECREF(fast);
    return h;
}

/* Layout ``l`` dealt into a copy of the call's context. */
static int place_layout(const Ctx *proto, const Layout *l, Ctx *c, const char **err)
{
    *c = *proto;
    c->leader = l->leader;
    return place(c, l->h, l->trick, l->ntrick, err);
}

/* Every layout placed up front, so a bad one is refused before any search. */
static int place_all(Ctx *proto, const Layout *h, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        Ctx c;
        const char *err = NULL;
        if (place_layout(proto, h + i, &c, &err) < 0) {
            PyErr_Format(PyExc_ValueError, "layout %zd: %s", i, err);
            return -1;
        }
    }
    return 0;
}


/* ---- the all-pass, each player for himself (max-n) ------------------------
 *
 * On an all-pass nobody plays for a side: each of the three takes as few tricks
 * as he can for himself (rules.md §8).  The search above values a card by how
 * few tricks the focus takes if the other two play to give him tricks, a
 * pessimistic model of two players who are in fact each busy with their own.
 * This search gives every player his own aim: a position's value is the vector
 * of the three players' tricks from here, and the player to move picks the card
 * that leaves him the fewest; of cards equal for him, the one that leaves the
 * player after him the most (a fixed rule, so every layout is judged alike).
 * Only where no talon card leads any more (tricks 3 on, or no talon leads at
 * all) and without trumps.  Values at trick boundaries depend only on the hands
 * and the leader, so the table is never invalidated; it is the engine's own. */

typedef struct SelfishEntry {
    uint32_t h0, h1, h2;
    uint8_t leader; /* leader + 1; 0: empty */
    uint8_t v[3];
} SelfishEntry;

#define SELFISH_BITS 19 /* 8 MB */

typedef struct {
    SelfishEntry *t;
    unsigned long long nodes;
} Selfish;

static inline size_t selfish_index(uint32_t h0, uint32_t h1, uint32_t h2, int leader)
{
    uint64_t x = ((uint64_t)h0 * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)h1 * 0xC2B2AE3D27D4EB4Full) ^
                 ((uint64_t)h2 * 0x165667B19E3779F9ull) ^ (uint64_t)leader;
    x ^= x >> 29;
    return (size_t)(x >> (64 - SELFISH_BITS));
}

static void selfish_value(Selfish *s, uint32_t *h, int leader, int *trick, int nt, int *out);

/* The three players' tricks after player p plays card x. */
static void selfish_after(Selfish *s, uint32_t *h, int leader, int *trick, int nt, int p, int x, int *out)
{
    h[p] &= ~(1u << x);
    trick[nt] = x;
    if (nt + 1 < 3) {
        selfish_value(s, h, leader, trick, nt + 1, out);
    } else {
        int led = SUIT(trick[0]), win = leader, best = trick[0];
        for (int i = 1; i < 3; i++)
            if (SUIT(trick[i]) == led && trick[i] > best) {
                best = trick[i];
                win = (leader + i) % 3;
            }
        int fresh[3]; /* the next trick's cards: this trick's stay for the caller's next card */
        selfish_value(s, h, win, fresh, 0, out);
        out[win]++;
    }
    h[p] |= 1u << x;
}

static void selfish_value(Selfish *s, uint32_t *h, int leader, int *trick, int nt, int *out)
{
    SelfishEntry *e = NULL;
    if (nt == 0) {
        if (!h[leader]) {
            out[0] = out[1] = out[2] = 0;
            return;
        }
        e = &s->t[selfish_index(h[0], h[1], h[2], leader)];
        if (e->leader == leader + 1 && e->h0 == h[0] && e->h1 == h[1] && e->h2 == h[2]) {
            out[0] = e->v[0]; out[1] = e->v[1]; out[2] = e->v[2];
            return;
        }
    }
    s->nodes++;
    int p = (leader + nt) % 3;
    uint32_t moves = h[p];
    if (nt && (moves & SMASK(SUIT(trick[0]))))
        moves &= SMASK(SUIT(trick[0]));
    uint32_t live = h[0] | h[1] | h[2];
    for (int i = 0; i < nt; i++)
        live |= 1u << trick[i]; /* a card on the table splits my runs too: it may beat one, not the other */
    int best[3] = {0, 0, 0}, v[3], next = (p + 1) % 3, any = 0;
    for (int su = 0; su < 4; su++) {
        uint32_t m = (moves >> (8 * su)) & 0xFF;
        if (!m)
            continue;
        for (uint32_t reps = REPS[m][(live >> (8 * su)) & 0xFF]; reps; reps &= reps - 1) {
            selfish_after(s, h, leader, trick, nt, p, 8 * su + __builtin_ctz(reps), v);
            if (!any || v[p] < best[p] || (v[p] == best[p] && v[next] > best[next])) {
                any = 1;
                best[0] = v[0]; best[1] = v[1]; best[2] = v[2];
            }
        }
    }
    out[0] = best[0]; out[1] = best[1]; out[2] = best[2];
    if (e) {
        e->h0 = h[0]; e->h1 = h[1]; e->h2 = h[2];
        e->leader = (uint8_t)(leader + 1);
        e->v[0] = (uint8_t)best[0]; e->v[1] = (uint8_t)best[1]; e->v[2] = (uint8_t)best[2];
    }
}

/* Every legal card's tricks for the focus in one layout; the count of cards. */
static int selfish_cards(Selfish *s, const Layout *l, int focus, int *cards, int *values)
{
    uint32_t h[3] = {l->h[0], l->h[1], l->h[2]};
    int p = (l->leader + l->ntrick) % 3, n = 0;
    uint32_t moves = h[p];
    if (l->ntrick && (moves & SMASK(SUIT(l->trick[0]))))
        moves &= SMASK(SUIT(l->trick[0]));
    for (; moves; moves &= moves - 1) {
        int x = __builtin_ctz(moves), v[3], t[3] = {l->trick[0], l->trick[1], l->trick[2]};
        selfish_after(s, h, l->leader, t, l->ntrick, p, x, v);
        cards[n] = x;
        values[n++] = v[focus];
    }
    return n;
}

/* One batch call: the shared arguments, every layout read and checked, the
 * engine claimed, and room for the answers. */
typedef struct {
    Ctx proto;
    Layout *h;
    Py_ssize_t n;
    int trick[3], ntrick, target;
    int *cards, *values, *counts; /* 32 per layout; counts: cards per layout, or the values */
} Batch;

static void batch_free(Batch *b)
{
    PyMem_Free(b->h); PyMem_Free(b->cards); PyMem_Free(b->values); PyMem_Free(b->counts);
}

static int batch_begin(Engine *self, PyObject *args, PyObject *kw, Batch *b)
{
    PyObject *hands_o;
    memset(b, 0, sizeof *b);
    if (parse_common(args, kw, &hands_o, &b->proto, b->trick, &b->ntrick, &b->target) < 0)
        return -1;
    if (!(b->h = read_layouts(hands_o, &b->proto, b->trick, b->ntrick, &b->n)))
        return -1;
    size_t m = (size_t)(b->n ? b->n : 1);
    b->cards = PyMem_Malloc(sizeof(int) * 32 * m);
    b->values = PyMem_Malloc(sizeof(int) * 32 * m);
    b->counts = PyMem_Malloc(sizeof(int) * m);
    if (!b->cards || !b->values || !b->counts) {
        PyErr_NoMemory();
        batch_free(b);
        return -1;
    }
    if (place_all(&b->proto, b->h, b->n) < 0 || claim(self, &b->proto) < 0) {
        batch_free(b);
        return -1;
    }
    return 0;
}

/* Search every layout without the GIL: the value (solve) or every card's value (moves). */
static void batch_run(Engine *self, Batch *b, int moves)
{
    unsigned long long nodes = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < b->n; i++) {
        Ctx c;
        const char *err;
        place_layout(&b->proto, b->h + i, &c, &err); /* checked by place_all */
        if (moves)
            b->counts[i] = card_values(&c, b->cards + 32 * i, b->values + 32 * i);
        else
            b->counts[i] = value_of(&c, b->target);
        nodes += c.nodes;
    }
    Py_END_ALLOW_THREADS
    self->busy = 0;
    self->nodes += nodes;
}

/* The answer of a batch of every card's value, [[(card, value)] a layout]; frees the batch. */
static PyObject *batch_moves(Batch *b)
{
    PyObject *res = PyList_New(b->n);
    for (Py_ssize_t i = 0; res && i < b->n; i++) {
        PyObject *one = pairs_list(b->cards + 32 * i, b->values + 32 * i, b->counts[i]);
        if (!one) {
            Py_CLEAR(res);
            break;
        }
        PyList_SET_ITEM(res, i, one);
    }
    batch_free(b);
    return res;
}

static PyObject *Engine_solve_many(Engine *self, PyObject *args, PyObject *kw)
{
    Batch b;
    if (batch_begin(self, args, kw, &b) < 0)
        return NULL;
    batch_run(self, &b, 0);
    PyObject *res = PyList_New(b.n);
    for (Py_ssize_t i = 0; res && i < b.n; i++) {
        PyObject *v = b.target >= 0 ? PyBool_FromLong(b.counts[i]) : PyLong_FromLong(b.counts[i]);
        if (!v) {
            Py_CLEAR(res);
            break;
        }
        PyList_SET_ITEM(res, i, v);
    }
    batch_free(&b);
    return res;
}

static PyObject *Engine_moves_many(Engine *self, PyObject *args, PyObject *kw)
{
    Batch b;
    if (batch_begin(self, args, kw, &b) < 0)
        return NULL;
    batch_run(self, &b, 1);
    return batch_moves(&b);
}

static PyObject *Engine_selfish_many(Engine *self, PyObject *args, PyObject *kw)
{
    Batch b;
    if (batch_begin(self, args, kw, &b) < 0)
        return NULL;
    if (b.proto.goal != GOAL_ALLPASS || b.proto.ntalon || b.proto.trump >= 0) {
        self->busy = 0;
        batch_free(&b);
        PyErr_SetString(PyExc_ValueError,
                        "selfish_many: an all-pass with no talon card left to lead and no trump");
        return NULL;
    }
    if (!self->stt && !(self->stt = calloc((size_t)1 << SELFISH_BITS, sizeof(SelfishEntry)))) {
        self->busy = 0;
        batch_free(&b);
        return PyErr_NoMemory();
    }
    Selfish s = {self->stt, 0};
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < b.n; i++)
        b.counts[i] = selfish_cards(&s, b.h + i, b.proto.focus, b.cards + 32 * i, b.values + 32 * i);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    self->nodes += s.nodes;
    return batch_moves(&b);
}

static PyObject *Engine_reset(Engine *self, PyObject *Py_UNUSED(ignored))
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "engine is in use by another thread");
        return NULL;
    }
    bump_generation(self);
    self->cfg_valid = 0;
    Py_RETURN_NONE;
}

static int Engine_init(Engine *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"size_mb", NULL};
    int mb = 16;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|i", kwlist, &mb))
        return -1;
    if (mb < 1 || mb > 4096) {
        PyErr_Format(PyExc_ValueError, "table size must be 1..4096 MB, not %d", mb);
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "engine is in use by another thread");
        return -1;
    }
    size_t want = (size_t)mb << 20, nb = 1;
    while (nb * 2 * BUCKET * sizeof(Entry) <= want)
        nb *= 2;
    /* Every probe is a random access into the table: huge pages spare a
     * TLB miss on most of them (measured: about 20% of a solve). */
    size_t bytes = nb * BUCKET * sizeof(Entry);
    void *mem = NULL;
    if (posix_memalign(&mem, (size_t)2 << 20, bytes) != 0) {
        PyErr_NoMemory();
        return -1;
    }
#if defined(MADV_HUGEPAGE)
    madvise(mem, bytes, MADV_HUGEPAGE);
#endif
    memset(mem, 0, bytes);
    Entry *tt = mem;
    free(self->tt);
    self->tt = tt;
    self->nbuckets = nb;
    self->gen = 1;
    self->cfg_valid = 0;
    return 0;
}

static void Engine_dealloc(Engine *self)
{
    free(self->stt);
    free(self->tt);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Engine_get_size(Engine *self, void *Py_UNUSED(closure))
{
    return PyLong_FromSize_t(self->nbuckets * BUCKET * sizeof(Entry));
}

static PyMethodDef Engine_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))Engine_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(hands, leader, trick, trump, goal, focus, talon, participates=False, target=-1, "
     "flags=0)\n--\n\nThe exact value, or with target >= 0 whether the value is >= target."},
    {"moves", (PyCFunction)(void (*)(void))Engine_moves, METH_VARARGS | METH_KEYWORDS,
     "moves(...same arguments as solve...)\n--\n\n[(card, value)] for every legal card."},
    {"solve_many", (PyCFunction)(void (*)(void))Engine_solve_many, METH_VARARGS | METH_KEYWORDS,
     "solve_many(hands_list, ...same other arguments as solve...)\n--\n\n"
     "solve() on each (h0, h1, h2) of hands_list in one call, sharing the table; an item\n"
     "(h0, h1, h2, leader, trick) brings its own leader and cards on the table."},
    {"moves_many", (PyCFunction)(void (*)(void))Engine_moves_many, METH_VARARGS | METH_KEYWORDS,
     "moves_many(hands_list, ...same other arguments as solve...)\n--\n\n"
     "moves() on each (h0, h1, h2) of hands_list in one call, sharing the table; an item\n"
     "(h0, h1, h2, leader, trick) brings its own leader and cards on the table."},
    {"selfish_many", (PyCFunction)(void (*)(void))Engine_selfish_many, METH_VARARGS | METH_KEYWORDS,
     "selfish_many(hands_list, ...same other arguments as solve; an all-pass, no talon left)\n--\n\n"
     "moves_many() with each player taking as few tricks as he can for himself (max-n), not\n"
     "the other two playing to give the focus tricks: [(card, the focus's tricks)] a layout."},
    {"reset", (PyCFunction)Engine_reset, METH_NOARGS, "Invalidate every table entry."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef Engine_members[] = {
    {"nodes", T_ULONGLONG, offsetof(Engine, nodes), 0, "nodes searched so far"},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef Engine_getset[] = {
    {"size", (getter)Engine_get_size, NULL, "table size in bytes", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "preferans.solver._solver.Engine",
    .tp_doc = "Engine(size_mb=16)\n--\n\nA search engine owning one transposition table.",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
    .tp_members = Engine_members,
    .tp_getset = Engine_getset,
};


static struct PyModuleDef solver_module = {
    PyModuleDef_HEAD_INIT, "_solver", "Double-dummy search core (C).", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__solver(void)
{
    init_reps();
    if (PyType_Ready(&EngineType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&solver_module);
    if (!m)
        return NULL;
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(m, "Engine", (PyObject *)&EngineType) < 0) {
        Py_DECREF(&EngineType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "NO_TT", F_NO_TT);
    PyModule_AddIntConstant(m, "NO_EQUIV", F_NO_EQUIV);
    PyModule_AddIntConstant(m, "NO_BOUNDS", F_NO_BOUNDS);
    PyModule_AddIntConstant(m, "NO_ORDER", F_NO_ORDER);
    PyModule_AddIntConstant(m, "NO_LAST", F_NO_LAST);
    PyModule_AddIntConstant(m, "BISECT", F_BISECT);
    PyModule_AddIntConstant(m, "NO_REL", F_NO_REL);
    return m;
}
