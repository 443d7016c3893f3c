/* Helpers every cmocka test may use (tests/common/ is linked into each test
 * binary): test data files, the real card's frame, a reproducible random
 * generator, a clock.  Paths are relative to the repo root, where the tests
 * run.  Each loader fails the calling test (cmocka fail_msg / assert) instead
 * of returning an error. */
#ifndef CEDAR_TESTS_COMMON_TEST_UTIL_H
#define CEDAR_TESTS_COMMON_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cedar/demo.h"
#include "cedar/tiling.h"
#include "tests/common/render_scene.h"

/* --- float bits ----------------------------------------------------------- */

static inline uint32_t test_f2u(float f)
{
    union { float f; uint32_t u; } c = { .f = f };
    return c.u;
}

static inline float test_u2f(uint32_t u)
{
    union { float f; uint32_t u; } c = { .u = u };
    return c.f;
}

/* --- small floats from their definitions (small_float_ref.c) -------------- */

/* float -> the small float of mant mantissa bits, exp exponent bits and a
 * sign bit when sign: the nearest code, ties to even; a finite value past
 * the largest finite code infinity (sign) or that code (no sign); infinity
 * infinity;
 * negative values without a sign bit 0; NaN the quiet NaN (mantissa's top
 * bit). */
uint32_t test_small_float_encode(float v, unsigned mant, unsigned exp, bool sign);
/* The value of small float raw (NaN for a NaN code). */
double test_small_float_value(uint32_t raw, unsigned mant, unsigned exp, bool sign);

/* --- files (test_files.c) ------------------------------------------------- */

/* The whole file, malloc'd, with a NUL byte after its `*size` bytes so a
 * text file is also a C string; `size` may be NULL. */
uint8_t *test_read_file(const char *path, size_t *size);

/* A file of little-endian dwords (a command stream): fails unless it is
 * non-empty and a whole number of dwords; `*ndw` is the count. */
uint32_t *test_read_dwords(const char *path, size_t *ndw);

/* Up to `cap` native-order words of a .bin (an assembled shader) into `w`;
 * returns how many were read. */
size_t test_load_words(const char *path, uint32_t *w, size_t cap);

/* --- shaders (shader_text.c) ---------------------------------------------- */

/* The disassembly of the shader w[0..ndw) (eg_shader_disasm), malloc'd;
 * fails unless everything decoded. */
char *test_disasm(const uint32_t *w, size_t ndw);

/* --- the real card's frame (card_frame.c) --------------------------------- */

/* A resolved 8x frame read back from an HD 7350 (tests/data/cedar/README.md). */
#define TEST_CARD_FRAME "tests/data/cedar/eg.1.bin.gz"

/* The surface that frame was tiled as: 1280x720 B8G8R8A8 in a 1280x768 2D
 * tiled buffer (parameters from tests/data/cedar/README.md). */
struct cedar_surface test_card_frame_surface(void);

/* The frame, read and de-tiled through `m` into a new buffer with rows of
 * `stride` bytes; fails unless the file holds exactly the `m->size` bytes
 * the map addresses. */
uint8_t *test_card_frame_detiled(const struct cedar_tile_map *m, size_t stride);

/* The scene's size in that frame: rows 0..719 hold the scene, top row first. */
#define TEST_CARD_WIDTH 1280u
#define TEST_CARD_HEIGHT 720u

/* The fidelity every render of cedar's own command buffers must reach
 * against the card's frame (tests/common/render_scene.h): the thresholds of
 * test_card_thresholds_met, no pixel off by more than 1, every partially
 * covered pixel exact (the resolve's averaging rule, issue 16) and at most
 * TEST_CARD_INTERIOR_OFF pixels not exact (fully covered pixels whose
 * interpolated colour is 1 off: 921,588 of the 921,600 exact). */
#define TEST_CARD_INTERIOR_OFF 12u
void test_assert_card_fidelity(const struct fidelity *f);

/* --- the demo's frame on the virtual Cedar (demo_frame.c) ------------------ */

/* The default scene (1280x720, 8x, fast clear, the triangle, CB resolve)
 * from cedar's own command buffers (cedar_demo_plan_build) run on the
 * virtual Cedar (cedar_dev_open_virtual, cedar_demo_run). */
struct test_demo_frame {
    struct cedar_demo_config cfg;
    struct cedar_demo_plan plan;
    struct cedar_demo_result res;
    struct cedar_dev *dev;
    struct cedar_tile_map rmap, fmap;  /* the resolve target's and the FMask's maps */
    uint8_t *bgra;                     /* the resolved frame de-tiled: rmap.width x rmap.height */
    size_t stride;                     /* bytes per row of bgra */
    struct fidelity_edges edges;       /* its FMask: the partially covered pixels at 8x */
};
void test_demo_frame_render(struct test_demo_frame *d);
/* The same scene with another configuration (at least 2 samples). */
void test_demo_frame_render_cfg(struct test_demo_frame *d, const struct cedar_demo_config *cfg);
void test_demo_frame_free(struct test_demo_frame *d);

/* --- a frame against the card's (card_compare.c) --------------------------- */

/* Compares `mine` (B, G, R, A; rows `stride` bytes apart, the top of the
 * scene first) with the card's frame over the scene's 1280 x 720 pixels
 * into *f; edge pixels are those `edges` calls partially covered.  Prints
 * the figures (FIDELITY: lines) under "(label)" and, with diff_png, writes a
 * difference image there (build/artefacts/ is created). */
void test_card_compare(const uint8_t *mine, size_t stride, const struct fidelity_edges *edges,
                       const char *label, const char *diff_png, struct fidelity *f);

/* A raw RGBA8 frame, 1280 x 720 x 4 bytes, the top of the scene first
 * (cedar-gldemo --raw), read into a new buffer as B, G, R, A (the card's
 * order, rows 1280 x 4 bytes apart); fails the test unless the file has
 * that size. */
uint8_t *test_rgba_file_as_bgra(const char *path);

/* Among the pixels whose centre lies at least min_distance pixels from each
 * of the triangle's three edge lines (where no sample pattern can make a
 * pixel partly covered once min_distance > 0.71, half a pixel's diagonal),
 * how many there are and how many are within 1 of the card's; printed as a
 * FIDELITY: line. */
void test_card_compare_away_from_edges(const uint8_t *mine, size_t stride, double min_distance,
                                       uint64_t *pixels, uint64_t *within1);

/* The thresholds of issues 7 and 10 for a render of the demo scene against
 * the card: >= 99.99% of all pixels within 1 (per channel), >= 99% of the
 * partially covered pixels within 2, and more than 1000 of those (a real
 * MSAA edge). */
bool test_card_thresholds_met(const struct fidelity *f);

/* --- randomness and time (test_rand.c) ------------------------------------ */

/* xorshift64*: fixed seeds give the same runs on every machine. */
void test_rand_seed(uint64_t seed);
uint32_t test_rand(void);
/* An exported colour channel hard for an 8-bit UNORM store: 0, 1, the
 * half-float and denormal edges, NaN, Inf, or an 8-bit rounding point
 * nudged by a few float steps. */
float test_rand_colour_channel(void);

/* CLOCK_MONOTONIC in seconds. */
double test_now(void);

/* --- the render tests' reference scene (render_scene_util.c) ---------------- */

struct scene;
struct cb_target;

/* scene_init at `samples` with scene_use_demo_shaders, the demo's shaders
 * built into sh. */
void test_scene_start_demo(struct scene *sc, struct eg_demo_shaders *sh, unsigned samples);
/* The resolved frame (scene_readback) in a new buffer of `bytes`. */
uint8_t *test_scene_frame(const struct scene *sc, size_t bytes);
/* scene_init + scene_use_demo_shaders + scene_render at `samples`. */
void test_scene_render_demo(struct scene *sc, unsigned samples);
/* cb_target_init of CB`cb` from the scene's registers. */
void test_cb_target_init(struct scene *sc, struct cb_target *t, unsigned cb, unsigned samples);
/* CB1 as the resolve programs it: CB0's INFO without FAST_CLEAR and
 * COMPRESSION (CB1 only has a format during the resolve). */
void test_scene_cb1_as_resolve_target(struct scene *sc);
/* test_scene_render_demo at `samples`, CB1 as the resolve target, and the
 * resolve's two targets in new memory (free them): *src CB0 (the MSAA
 * surface), *dst CB1 (one sample). */
void test_scene_resolve_targets(struct scene *sc, unsigned samples, struct cb_target **src, struct cb_target **dst);

/* --- the virtual Cedar through the ioctl seam (vcedar_util.c) ------------- */

struct cedar_dev;
struct cedar_cmdbuf;
struct vcedar;

/* GEM_CREATE of `size` bytes in `domain`; fails the test unless it succeeds. */
uint32_t test_vc_bo_new(struct cedar_dev *dev, uint64_t size, uint32_t domain);
/* GEM_MMAP + mmap of `size` bytes of buffer `handle`; fails the test unless both succeed. */
void *test_vc_bo_map(struct cedar_dev *dev, uint32_t handle, uint64_t size);
/* DRM_IOCTL_RADEON_CS of cb (IB, its relocations, FLAGS {flags, ring}); the ioctl's result. */
int test_vc_submit(struct cedar_dev *dev, const struct cedar_cmdbuf *cb, uint32_t ring, uint32_t flags);
/* The dword at GPU address addr of a virtual Cedar's memory; fails the test
 * unless it can be read. */
uint32_t test_vc_read32(struct vcedar *vc, uint64_t addr);

#endif
