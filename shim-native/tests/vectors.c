/* Checks the engine against the spec's vectors (wire-and-abi.md §7.1, §9) without LD_PRELOAD.
 * Prints "ok <name>" or "FAIL <name>: got ... want ..." per vector; exit status 1 on any failure. */
#include "weft.h"
#include <stdio.h>
#include <string.h>
#include <inttypes.h>

void weft_sched_stats_at_exit(void) {}
void weft_net_at_exit(void) {}

static int failures, passed;
#define OK(name) (passed++, (void)(name))

static void check_u64(const char *name, uint64_t got, uint64_t want) {
    if (got == want) OK(name);
    else { printf("FAIL %s: got %016" PRIx64 " want %016" PRIx64 "\n", name, got, want); failures++; }
}

static void check_hex(const char *name, const uint8_t *b, size_t n, const char *want) {
    char got[129];
    for (size_t i = 0; i < n; i++) sprintf(got + 2 * i, "%02x", b[i]);
    if (!strcmp(got, want)) OK(name);
    else { printf("FAIL %s: got %s want %s\n", name, got, want); failures++; }
}

static uint64_t first_u64(uint64_t seed, uint64_t stream) {
    uint8_t key[32];
    weft_chacha g;
    weft_expand(seed, key);
    weft_chacha_init(&g, key, stream);
    return weft_chacha_u64(&g);
}

static void check_seed(const char *text, const char *want_err, uint64_t want) {
    uint64_t v = 0;
    const char *err = weft_parse_seed(text, &v);
    char name[96];
    snprintf(name, sizeof name, "parse_seed(\"%s\")", text);
    if (want_err ? (err && !strcmp(err, want_err)) : (!err && v == want)) OK(name);
    else { printf("FAIL %s: got %s/%" PRIu64 "\n", name, err ? err : "ok", v); failures++; }
}

int main(void) {
    /* ChaCha20 validation vector, all-zero key, stream 0 */
    uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574}, out[16];
    weft_chacha_block_rounds(in, out, 20);
    check_u64("chacha20 W0..W1", (uint64_t)out[0] << 32 | out[1], 0xade0b876903df1a0ULL);
    check_u64("chacha20 W2..W3", (uint64_t)out[2] << 32 | out[3], 0xe56a5d4028bd8653ULL);

    uint64_t s = 0;
    check_u64("splitmix64 first from 0", weft_splitmix_step(&s), 0xe220a8397b1dcdafULL);
    uint8_t key[32];
    weft_expand(0, key);
    check_hex("expand(0)", key, 32, "afcd1d7b39a820e2f465b9a16a9e786e4f450980185dc406ec814c72a8b88bf8");
    weft_expand(42, key);
    check_hex("expand(42)", key, 32, "956eeb2f2632d7bd03f166b233e3ef28529f0f135767524794e34a0effe11c58");

    /* the 4-lane vectorised generator must equal the scalar 8-round block, across refills */
    {
        weft_chacha g;
        weft_chacha_init(&g, key, 5);
        int bad = 0;
        for (uint64_t blk = 0; blk < 12; blk++) {
            uint32_t bin[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
            for (int i = 0; i < 8; i++) memcpy(&bin[4 + i], key + 4 * i, 4);
            bin[12] = (uint32_t)blk; bin[13] = 0; bin[14] = 5; bin[15] = 0;
            uint32_t bout[16];
            weft_chacha_block_rounds(bin, bout, 8);
            for (int i = 0; i < 16; i++) if (weft_chacha_u32(&g) != bout[i]) bad++;
        }
        check_u64("lane generator == scalar blocks", (uint64_t)bad, 0);
    }

    weft_chacha g;
    weft_chacha_init(&g, key, 0);
    check_u64("seed 42 stream 0 #1", weft_chacha_u64(&g), 0x31159ef987c91afcULL);
    check_u64("seed 42 stream 0 #2", weft_chacha_u64(&g), 0x17559844b4169001ULL);
    weft_chacha_init(&g, key, 1);
    check_u64("seed 42 stream 1 #1", weft_chacha_u64(&g), 0xca785f2bfa2cd62eULL);
    weft_chacha_init(&g, key, 1);
    uint8_t b5[5], b8[8];
    weft_chacha_fill(&g, b5, 5);
    weft_chacha_fill(&g, b8, 8);
    check_hex("seed 42 getrandom(5)", b5, 5, "2ed62cfa2b");
    check_hex("seed 42 then getrandom(8)", b8, 8, "40765512399df027");
    weft_chacha_init(&g, key, 3);
    uint8_t aux[16];
    weft_chacha_fill(&g, aux, 16);
    check_hex("seed 42 AT_RANDOM", aux, 16, "ad0a2494f090f8c6c6f704d56e20f012");
    check_u64("seed 42 offset_secs", first_u64(42, 4), 5574938516184574121ULL);
    check_u64("seed 42 stream 5 #1", first_u64(42, 5), 0xcd59d2bc4f3fb3e8ULL);
    static const uint64_t s0[6] = {0xbf94d1332d8ee5e8ULL, 0x040f9883ab9f594aULL, 0xf2b8e0d1877bc9e6ULL,
                                   0x0709e489d458ff5aULL, 0xf8ccf244d5d3b2c1ULL, 0xff5c679fb69d2151ULL};
    for (int i = 0; i < 6; i++) {
        char name[40];
        snprintf(name, sizeof name, "seed 0 stream %d #1", i);
        check_u64(name, first_u64(0, (uint64_t)i), s0[i]);
    }
    check_u64("seed 0 offset_secs", first_u64(0, 4), 17927970594114220737ULL);

    check_seed("42", NULL, 42);
    check_seed("  +42\t", NULL, 42);
    check_seed("\xe3\x80\x80" "7" "\xc2\xa0", NULL, 7);
    check_seed("0xDEADBEEF", NULL, 0xDEADBEEFULL);
    check_seed("0X+ff", NULL, 255);
    check_seed("18446744073709551615", NULL, UINT64_MAX);
    check_seed("0xffffffffffffffff", NULL, UINT64_MAX);
    check_seed("18446744073709551616", "invalid decimal seed", 0);
    check_seed("0x1ffffffffffffffff", "invalid hex seed", 0);
    check_seed("0x", "invalid hex seed", 0);
    check_seed("0xg", "invalid hex seed", 0);
    check_seed("", "empty seed", 0);
    check_seed("   ", "empty seed", 0);
    check_seed("-1", "invalid decimal seed", 0);
    check_seed("1_0", "invalid decimal seed", 0);
    check_seed("abc", "invalid decimal seed", 0);
    if (failures) printf("FAILED %d of %d\n", failures, failures + passed);
    else printf("ALL OK (%d vectors)\n", passed);
    return failures ? 1 : 0;
}
