"""Scheduled tournaments: a Django app of its own (label ``tournaments``) inside games/.

``pairing`` and ``standings`` are pure Python; models, services, tasks and the API build on them.
"""
