/* The compiler's cache-prefetch hint, which Swift has no spelling for. It changes no result:
   it asks the processor to start loading a line that will be read soon. */
static inline void geoserve_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}
