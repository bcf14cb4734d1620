"""Services every feature shares, none of them a feature: the deadline dispatcher, the shutdown
gate, the refusal type, memory given back when quiet, alt text from a picture's scene, and the
copy of a database. Nothing here imports discord or a feature.
"""
