"""Local embedding models: the Embedder protocol, MiniLM (numpy or ONNX) and e5-small-v2, and
fetching their files.
"""
