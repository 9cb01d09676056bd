"""What a leg sends and what the reader is told to look for: the label templates and their
mitigations (``_prompts``), the rating prompts and scales (``_rating``), the answer
contracts (``_contract``: the verdict formats), the rules of a prompt's own text
(``_wording``) and the places a reply quotes the item (``_quotes``).
"""
