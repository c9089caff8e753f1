// Placeholder: the JPEG decoding entry point with setjmp-based error recovery is defined by ImageIO's owner.
#ifndef PUREVISION_JPEG_SUPPORT_H
#define PUREVISION_JPEG_SUPPORT_H
int purevision_jpeg_support_version(void);
#endif
