"""The knowledge pipeline: raw context chunks → assessed → candidate claims → governed facts,
with clarification questions, context packs and a self-repair audit."""
