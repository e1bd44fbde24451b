"""Request and result models of recall, bundles and timelines."""
