/* A Preferans bot in C for the preferans bot protocol (docs/bot-protocol.md).
 *
 * It reads one JSON message per line on stdin and answers `hello` and `observation`
 * with one line on stdout; every other message needs no answer.  It needs no JSON
 * library: it reads only the fields it uses ("type", "phase", "legal_ids", "trick",
 * "contract", "declarer", "to_play") and answers with action ids, which the table
 * accepts as well as text.
 *
 *   gcc -O2 -o bot examples/bot.c && preferans bot-check cmd:./bot
 *
 * Its play is simple: pass in the auction and in whisting, lay away low cards, follow
 * with the lowest card that wins the trick (the lowest card when none does, and on an
 * all-pass or its own misère the highest card that loses).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PASS = 61, MAX_IDS = 128 };

/* The text after "key": in `line`, or NULL. */
static const char *field(const char *line, const char *key) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *p = strstr(line, pattern);
    if (!p) return NULL;
    p += strlen(pattern);
    while (*p == ' ') p++;
    return p;
}

/* Does the string value of `key` equal `value`? */
static int is(const char *line, const char *key, const char *value) {
    const char *p = field(line, key);
    size_t n = strlen(value);
    return p && *p == '"' && strncmp(p + 1, value, n) == 0 && p[1 + n] == '"';
}

/* An integer field (null reads as -1). */
static int number(const char *line, const char *key) {
    const char *p = field(line, key);
    return p && *p != 'n' ? atoi(p) : -1;
}

/* The integers of the array `key`; returns how many. */
static int numbers(const char *line, const char *key, int *out) {
    const char *p = field(line, key);
    int n = 0;
    if (!p || *p != '[') return 0;
    for (p++; *p && *p != ']' && n < MAX_IDS; ) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p) { p++; continue; }
        out[n++] = (int)v;
        p = end;
    }
    return n;
}

/* A card's id from its text in the observation: rank 7..A, suit ♠ ♣ ♦ ♥ (UTF-8). */
static int card_id(const char *t) {
    static const char *ranks[] = {"7", "8", "9", "10", "J", "Q", "K", "A"};
    static const char *suits[] = {"\xe2\x99\xa0", "\xe2\x99\xa3", "\xe2\x99\xa6", "\xe2\x99\xa5"};
    for (int r = 0; r < 8; r++) {
        size_t n = strlen(ranks[r]);
        if (strncmp(t, ranks[r], n) != 0) continue;
        for (int s = 0; s < 4; s++)
            if (strncmp(t + n, suits[s], 3) == 0) return 8 * s + r;
    }
    return -1;
}

/* The cards on the table, in order, and who played them: "trick": [[2, "Q♥"], [0, "8♠"]]. */
static int trick(const char *line, int *seats, int *cards) {
    const char *p = field(line, "trick");
    int n = 0;
    if (!p || *p != '[') return 0;
    for (p++; n < 4 && *p == '['; n++) {             /* one [seat, "card"] entry */
        seats[n] = atoi(p + 1);
        const char *quote = strchr(p, '"');
        cards[n] = quote ? card_id(quote + 1) : -1;
        p = strchr(p, ']');
        if (!p) break;
        p++;
        while (*p == ',' || *p == ' ') p++;
    }
    return n;
}

/* How strongly a card holds a trick: trumps over the led suit over the rest. */
static int strength(int card, int led, int trump) {
    int suit = card >> 3;
    return (suit == trump ? 16 : suit == led ? 8 : 0) + (card & 7);
}

static int lowest(const int *ids, int n) {
    int best = ids[0];
    for (int i = 1; i < n; i++) if ((ids[i] & 7) < (best & 7)) best = ids[i];
    return best;
}

static int play(const char *line, const int *legal, int n) {
    int seats[4], cards[4];
    int m = trick(line, seats, cards);
    int declarer = number(line, "declarer"), to_play = number(line, "to_play");
    int misere = is(line, "contract", "misere"), trump = -1;
    const char *c = field(line, "contract");
    const char *suits[] = {"\xe2\x99\xa0", "\xe2\x99\xa3", "\xe2\x99\xa6", "\xe2\x99\xa5"};
    for (int s = 0; c && *c == '"' && s < 4; s++) {
        const char *end = strchr(c + 1, '"');
        const char *hit = strstr(c + 1, suits[s]);
        if (hit && hit < end) trump = s;
    }
    int dodge = declarer < 0 || (misere && declarer == to_play);
    if (m == 0) return lowest(legal, n);
    int led = cards[0] >> 3, top = 0;
    for (int i = 1; i < m; i++) if (strength(cards[i], led, trump) > strength(cards[top], led, trump)) top = i;
    int best = -1;
    for (int i = 0; i < n; i++) {
        int wins = strength(legal[i], led, trump) > strength(cards[top], led, trump);
        if (dodge && !wins && (best < 0 || (legal[i] & 7) > (best & 7))) best = legal[i];
        if (!dodge && wins && (best < 0 || (legal[i] & 7) < (best & 7))) best = legal[i];
    }
    (void)seats;
    return best >= 0 ? best : lowest(legal, n);
}

int main(void) {
    char *line = NULL;
    size_t size = 0;
    int legal[MAX_IDS];
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (getline(&line, &size, stdin) > 0) {
        if (is(line, "type", "hello")) {
            printf("ok c-example preferans-bot/2\n");
        } else if (is(line, "type", "observation")) {
            int n = numbers(line, "legal_ids", legal), answer = legal[0];
            for (int i = 0; i < n; i++) if (legal[i] == PASS) answer = PASS;   /* bidding, whisting */
            if (is(line, "phase", "discard")) answer = lowest(legal, n);
            if (is(line, "phase", "play")) answer = play(line, legal, n);
            printf("%d\n", answer);
        } else if (is(line, "type", "quit")) {
            break;
        }   /* rules, game, deal, result, error, end and unknown messages need no answer */
        fflush(stdout);
    }
    free(line);
    return 0;
}
