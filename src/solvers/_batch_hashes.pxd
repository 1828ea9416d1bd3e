from libc.stdint cimport uint8_t

cdef void hex_digest(const uint8_t* digest, char* out) noexcept nogil
cdef Py_ssize_t digest_count(bytes digests) except -1
cdef void _blake2b16(const uint8_t* data, Py_ssize_t n, uint8_t* out) noexcept nogil
