from libc.stdint cimport int64_t, uint8_t

cdef void hex_digest(const uint8_t* digest, char* out) noexcept nogil
cdef Py_ssize_t digest_count(bytes digests) except -1
cdef void _blake2b16(const uint8_t* data, Py_ssize_t n, uint8_t* out) noexcept nogil
cdef void blake2b16_many(const uint8_t* const* texts, const int64_t* sizes, Py_ssize_t count,
                         uint8_t* out) noexcept nogil
