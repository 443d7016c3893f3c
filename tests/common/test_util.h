/* Helpers every cmocka test may use (tests/common/ is linked into each test
 * binary): test data files, the real card's frame, a reproducible random
 * generator, a clock.  Paths are relative to the repo root, where the tests
 * run.  Each loader fails the calling test (cmocka fail_msg / assert) instead
 * of returning an error. */
#ifndef CEDAR_TESTS_COMMON_TEST_UTIL_H
#define CEDAR_TESTS_COMMON_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "cedar/tiling.h"

struct fidelity;

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

/* The fidelity every render of the demo scene must reach against the card's
 * frame (tests/common/render_scene.h): >= 99.99% of pixels within 1, >= 99% of
 * edge pixels within 2, a real MSAA edge, and the measured minima since the
 * half-float export and exact viewport snap: no pixel off by more than 1,
 * >= 99.98% exact, >= 92% of edge pixels exact. */
void test_assert_card_fidelity(const struct fidelity *f);

/* --- randomness and time (test_rand.c) ------------------------------------ */

/* xorshift64*: fixed seeds give the same runs on every machine. */
void test_rand_seed(uint64_t seed);
uint32_t test_rand(void);

/* CLOCK_MONOTONIC in seconds. */
double test_now(void);

/* --- the render tests' reference scene (render_scene_util.c) ---------------- */

struct scene;
struct cb_target;

/* scene_init + scene_use_demo_shaders + scene_render at `samples`. */
void test_scene_render_demo(struct scene *sc, unsigned samples);
/* cb_target_init of CB`cb` from the scene's registers. */
void test_cb_target_init(struct scene *sc, struct cb_target *t, unsigned cb, unsigned samples);
/* CB1 as the resolve programs it: CB0's INFO without FAST_CLEAR and
 * COMPRESSION (CB1 only has a format during the resolve). */
void test_scene_cb1_as_resolve_target(struct scene *sc);

/* --- the virtual Cedar through the ioctl seam (vcedar_util.c) ------------- */

struct cedar_dev;
struct cedar_cmdbuf;

/* GEM_CREATE of `size` bytes in `domain`; fails the test unless it succeeds. */
uint32_t test_vc_bo_new(struct cedar_dev *dev, uint64_t size, uint32_t domain);
/* GEM_MMAP + mmap of `size` bytes of buffer `handle`; fails the test unless both succeed. */
void *test_vc_bo_map(struct cedar_dev *dev, uint32_t handle, uint64_t size);
/* DRM_IOCTL_RADEON_CS of cb (IB, its relocations, FLAGS {flags, ring}); the ioctl's result. */
int test_vc_submit(struct cedar_dev *dev, const struct cedar_cmdbuf *cb, uint32_t ring, uint32_t flags);

#endif
