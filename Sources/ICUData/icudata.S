// ICU's data package for the static builds, trimmed to the items keep.txt lists (made by
// scripts/icu-data.py; docs/install.md, "Size"). It defines the symbol ICU reads its data
// from, so the linker never takes the toolchain's 34 MB `icudt76_dat` out of
// lib_FoundationICU.a. Dynamic builds use the toolchain's lib_FoundationICU.so, whose own
// copy is not exported, and this one is dropped by the linker as unreferenced.
    .section .rodata.icudt76_dat,"a",%progbits
    .globl icudt76_dat
    .type icudt76_dat,%object
    .balign 16
icudt76_dat:
    .incbin "icudt76l.dat"
    .size icudt76_dat, . - icudt76_dat
    .section .note.GNU-stack,"",%progbits
