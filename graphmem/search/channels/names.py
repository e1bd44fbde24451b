"""The channels' names, declared once: the request's ``channels``, the plans' weights, the
fusion constants and the answer's ``channels_used`` all say them with these."""

from enum import StrEnum


class ChannelName(StrEnum):
    FULLTEXT = "fulltext"
    VECTOR = "vector"
    GRAPH = "graph"
    SUBJECT = "subject"
