# cython: language_level=3
"""A column of byte strings in one buffer (see _batch_columns.pyx): the batch runner's
texts, ids and packed payloads, read by the native row writer without a Python object an
item."""


cdef class Strings:
    # every item's bytes one after the other, and the end of each (int64, native order)
    cdef readonly bytes data
    cdef readonly bytes ends
    cdef readonly Py_ssize_t count
    # items are text (str when read; UTF-8 in data), every item ASCII, every item a JSON
    # text that the row writer stores as a value without checking it (the native reader's
    # canonical texts)
    cdef readonly bint text
    cdef readonly bint ascii
    cdef readonly bint plain
    # bytes items that are packed payloads' compact forms (``buffer_put_compact``): what a
    # block read for a store of packed blocks keeps of its payloads (:func:`pack_groups`
    # and :func:`expanded_payloads` give the payloads back)
    cdef readonly bint compact

    cdef object item(self, Py_ssize_t i)
