"""What a person sees in Neo4j Browser: the style sheet and the graphmem guide."""
