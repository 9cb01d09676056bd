"""Questions and responses to rate, written for this example (no dataset), with the score a
careful reader would give each on 1-10."""

RESPONSES = [
    {
        "id": "boiling/precise",
        "question": "At what temperature does water boil at sea level?",
        "response": "At 100 degrees Celsius (212 degrees Fahrenheit) at standard "
        "atmospheric pressure; it boils at lower temperatures at altitude.",
        "expected": 9,
    },
    {
        "id": "boiling/wrong",
        "question": "At what temperature does water boil at sea level?",
        "response": "Water boils at 90 degrees Celsius everywhere on Earth.",
        "expected": 2,
    },
    {
        "id": "photosynthesis/thin",
        "question": "What is photosynthesis?",
        "response": "Something plants do.",
        "expected": 3,
    },
    {
        "id": "photosynthesis/good",
        "question": "What is photosynthesis?",
        "response": "The process by which plants, algae and some bacteria use light energy "
        "to turn carbon dioxide and water into glucose, releasing oxygen.",
        "expected": 9,
    },
]
