// The zbar peer of include/BarcodePeer.h, in C: zbar.h brings zbar's C++ wrappers into C++ code.
#include "BarcodePeer.h"

#include <stddef.h>
#include <zbar.h>

int barcode_peer_zbar_read(const uint8_t *data, int width, int height, int qrOnly)
{
    static zbar_image_scanner_t *scanners[2] = {NULL, NULL};
    zbar_image_scanner_t **slot = &scanners[qrOnly ? 1 : 0];
    if (!*slot) {
        zbar_image_scanner_t *scanner = zbar_image_scanner_create();
        if (!scanner) return -1;
        if (qrOnly) {
            zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0);
            zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1);
        } else {
            zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 1);
        }
        *slot = scanner;
    }
    zbar_image_t *image = zbar_image_create();
    if (!image) return -1;
    zbar_image_set_format(image, zbar_fourcc('Y', '8', '0', '0'));
    zbar_image_set_size(image, (unsigned)width, (unsigned)height);
    zbar_image_set_data(image, data, (unsigned long)width * height, NULL);
    const int found = zbar_scan_image(*slot, image);
    zbar_image_destroy(image);
    return found;
}
