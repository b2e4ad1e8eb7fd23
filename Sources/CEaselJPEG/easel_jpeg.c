#include "easel_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <jpeglib.h>
#include <jerror.h>

// One decode's state, reached from libjpeg's callbacks through the error manager (the
// first member, so the pointers convert).
typedef struct {
    struct jpeg_error_mgr error;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    easel_jpeg_status status;
    int truncated;
    uint64_t deadline_ns;
    int max_scans;
    int stop_when_cut_short;
    char *message;
    size_t message_size;
} decode_state;

static uint64_t now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static void write_message(decode_state *state, const char *text) {
    if (state->message == NULL || state->message_size == 0) return;
    snprintf(state->message, state->message_size, "%s", text);
}

static void stop(decode_state *state, easel_jpeg_status status, const char *text) {
    state->status = status;
    write_message(state, text);
    longjmp(state->jump, 1);
}

static void on_error(j_common_ptr cinfo) {
    decode_state *state = (decode_state *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    stop(state, EASEL_JPEG_ERROR, text);
}

static void on_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;  // trace messages
    decode_state *state = (decode_state *)cinfo->err;
    int code = cinfo->err->msg_code;
    if (code == JWRN_JPEG_EOF || code == JWRN_HIT_MARKER) {
        if (state->stop_when_cut_short) stop(state, EASEL_JPEG_TRUNCATED, "the file ends early");
        // A truncated file: libjpeg pads it out; keep what arrived.
        state->truncated = 1;
        write_message(state, "the file ends early (Premature end of JPEG file)");
        return;
    }
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    stop(state, EASEL_JPEG_ERROR, text);
}

static void on_progress(j_common_ptr cinfo) {
    decode_state *state = (decode_state *)cinfo->err;
    if (cinfo->is_decompressor && state->max_scans > 0 &&
        ((j_decompress_ptr)cinfo)->input_scan_number > state->max_scans) {
        char text[96];
        snprintf(text, sizeof text, "the file has more than %d scans", state->max_scans);
        stop(state, EASEL_JPEG_TOO_MANY_SCANS, text);
    }
    if (state->deadline_ns != 0 && now_ns() >= state->deadline_ns) {
        stop(state, EASEL_JPEG_DEADLINE, "the decode ran past its deadline and was stopped");
    }
}

static void prepare(struct jpeg_decompress_struct *cinfo, decode_state *state, char *message, size_t message_size) {
    memset(state, 0, sizeof *state);
    state->message = message;
    state->message_size = message_size;
    if (message != NULL && message_size > 0) message[0] = 0;
    cinfo->err = jpeg_std_error(&state->error);
    state->error.error_exit = on_error;
    state->error.emit_message = on_message;
}

// The bytes of the whole-image coefficient buffers jdcoefct.c allocates for a multi-scan
// file: each component's blocks, padded to its sampling factors, 64 coefficients of 2
// bytes each. Valid after jpeg_read_header.
static uint64_t coefficient_bytes(struct jpeg_decompress_struct *cinfo) {
    uint64_t total = 0;
    for (int i = 0; i < cinfo->num_components; i++) {
        jpeg_component_info *component = &cinfo->comp_info[i];
        uint64_t h = (uint64_t)component->h_samp_factor, v = (uint64_t)component->v_samp_factor;
        uint64_t columns = ((uint64_t)component->width_in_blocks + h - 1) / h * h;
        uint64_t rows = ((uint64_t)component->height_in_blocks + v - 1) / v * v;
        total += columns * rows * sizeof(JBLOCK);
    }
    return total;
}

// A row of CMYK pixels made opaque BGRA in place, as browsers and Pillow show CMYK: each
// colour channel times black's complement, R = (255 - C)(255 - K) / 255. A file with
// Adobe's marker (Photoshop's and most CMYK JPEGs) stores the inks inverted, so there
// R = C K / 255.
static void cmyk_to_bgra(uint8_t *row, JDIMENSION width, int inverted) {
    for (JDIMENSION x = 0; x < width; x++) {
        uint8_t *pixel = row + (size_t)x * 4;
        unsigned c = pixel[0], m = pixel[1], y = pixel[2], k = pixel[3];
        if (!inverted) c = 255 - c, m = 255 - m, y = 255 - y, k = 255 - k;
        pixel[0] = (uint8_t)((y * k + 127) / 255);
        pixel[1] = (uint8_t)((m * k + 127) / 255);
        pixel[2] = (uint8_t)((c * k + 127) / 255);
        pixel[3] = 255;
    }
}

easel_jpeg_status easel_jpeg_read_header(const uint8_t *bytes, size_t length, easel_jpeg_header *header,
                                         char *message, size_t message_size) {
    struct jpeg_decompress_struct cinfo;
    decode_state state;
    prepare(&cinfo, &state, message, message_size);
    if (setjmp(state.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return state.status;
    }
    jpeg_CreateDecompress(&cinfo, JPEG_LIB_VERSION, sizeof cinfo);
    jpeg_mem_src(&cinfo, bytes, (unsigned long)length);
    jpeg_read_header(&cinfo, TRUE);
    header->width = cinfo.image_width;
    header->height = cinfo.image_height;
    header->components = cinfo.num_components;
    header->multiple_scans = jpeg_has_multiple_scans(&cinfo) ? 1 : 0;
    header->work_bytes = header->multiple_scans ? coefficient_bytes(&cinfo) : 0;
    jpeg_destroy_decompress(&cinfo);
    return EASEL_JPEG_OK;
}

easel_jpeg_status easel_jpeg_decode(const uint8_t *bytes, size_t length, uint8_t *destination, size_t stride,
                                    const easel_jpeg_limits *limits, unsigned eighths, char *message,
                                    size_t message_size) {
    return easel_jpeg_decode_rows(bytes, length, destination, stride, limits, eighths, 0, UINT32_MAX, message,
                                  message_size);
}

easel_jpeg_status easel_jpeg_decode_rows(const uint8_t *bytes, size_t length, uint8_t *destination, size_t stride,
                                         const easel_jpeg_limits *limits, unsigned eighths, uint32_t first_row,
                                         uint32_t end_row, char *message, size_t message_size) {
    if (eighths < 1 || eighths > 8 || first_row > end_row) return EASEL_JPEG_ERROR;
    struct jpeg_decompress_struct cinfo;
    decode_state state;
    prepare(&cinfo, &state, message, message_size);
    state.max_scans = limits != NULL ? limits->max_scans : 0;
    state.stop_when_cut_short = limits != NULL ? limits->stop_when_cut_short : 0;
    if (limits != NULL && limits->time_allowed_ns != 0) state.deadline_ns = now_ns() + limits->time_allowed_ns;
    if (setjmp(state.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return state.status;
    }
    jpeg_CreateDecompress(&cinfo, JPEG_LIB_VERSION, sizeof cinfo);
    state.progress.progress_monitor = on_progress;
    cinfo.progress = &state.progress;
    jpeg_mem_src(&cinfo, bytes, (unsigned long)length);
    jpeg_read_header(&cinfo, TRUE);
    // The accurate integer DCT and fancy upsampling: the pixels TurboJPEG gave with
    // TJFLAG_ACCURATEDCT, which the goldens hold. A CMYK (or YCCK) file comes out as CMYK,
    // four bytes a pixel as BGRA is, and is made BGRA row by row (cmyk_to_bgra).
    const int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    const int inverted = cinfo.saw_Adobe_marker;
    cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_BGRA;
    cinfo.dct_method = JDCT_ISLOW;
    cinfo.scale_num = eighths;
    cinfo.scale_denom = 8;
    jpeg_start_decompress(&cinfo);
    if (cinfo.output_width != ((uint64_t)cinfo.image_width * eighths + 7) / 8 ||
        cinfo.output_height != ((uint64_t)cinfo.image_height * eighths + 7) / 8 ||
        cinfo.output_components != 4) {
        stop(&state, EASEL_JPEG_ERROR, "unexpected output size");
    }
    JDIMENSION end = end_row < cinfo.output_height ? end_row : cinfo.output_height;
    // The rows above are read past: their coefficients decoded (each row's depend on those
    // before), no pixels made of them. In pieces of whole iMCU rows, the deadline checked
    // after each: libjpeg-turbo reports no progress while it skips.
    if (first_row >= end) {
        end = 0;  // no rows asked for: none written (not the rows from the top)
    } else if (first_row > 0) {
#if JPEG_LIB_VERSION >= 70
        const JDIMENSION imcu_rows = (JDIMENSION)cinfo.max_v_samp_factor * (JDIMENSION)cinfo.min_DCT_v_scaled_size;
#else
        const JDIMENSION imcu_rows = (JDIMENSION)cinfo.max_v_samp_factor * (JDIMENSION)cinfo.min_DCT_scaled_size;
#endif
        const JDIMENSION piece = imcu_rows > 0 ? imcu_rows * 32 : first_row;
        while (cinfo.output_scanline < first_row) {
            const JDIMENSION left = first_row - cinfo.output_scanline;
            if (jpeg_skip_scanlines(&cinfo, left < piece ? left : piece) == 0) break;
            on_progress((j_common_ptr)&cinfo);
        }
    }
    while (cinfo.output_scanline < end) {
        JSAMPROW row = destination + (size_t)cinfo.output_scanline * stride;
        jpeg_read_scanlines(&cinfo, &row, 1);
        if (cmyk) cmyk_to_bgra(row, cinfo.output_width, inverted);
    }
    // The whole file is read (its end checked) only by a decode that reaches the last row.
    if (end == cinfo.output_height && end > 0) {
        jpeg_finish_decompress(&cinfo);
    } else {
        jpeg_abort_decompress(&cinfo);
    }
    jpeg_destroy_decompress(&cinfo);
    return state.truncated ? EASEL_JPEG_TRUNCATED : EASEL_JPEG_OK;
}
