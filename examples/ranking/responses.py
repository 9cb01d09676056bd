"""Questions, each with responses to rank, written for this example (no dataset), with the
ranking a careful reader would give them (best first)."""

QUESTIONS = [
    {
        "id": "boiling",
        "question": "At what temperature does water boil at sea level?",
        "responses": [
            "Water boils at 90 degrees Celsius everywhere on Earth.",
            "At 100 degrees Celsius (212 degrees Fahrenheit) at standard atmospheric "
            "pressure; it boils at lower temperatures at altitude, where the pressure is lower.",
            "100 degrees Celsius.",
            "It depends on the kettle.",
        ],
        "expected": ["B", "C", "A", "D"],
    },
    {
        "id": "photosynthesis",
        "question": "What is photosynthesis?",
        "responses": [
            "Something plants do.",
            "How plants make food from light.",
            "The process by which plants, algae and some bacteria use light energy to turn "
            "carbon dioxide and water into glucose, releasing oxygen.",
        ],
        "expected": ["C", "B", "A"],
    },
    {
        "id": "primes",
        "question": "Is 91 a prime number?",
        "responses": [
            "Yes, 91 is prime.",
            "No: 91 = 7 x 13.",
            "No, it is divisible by 7.",
        ],
        "expected": ["B", "C", "A"],
    },
]
