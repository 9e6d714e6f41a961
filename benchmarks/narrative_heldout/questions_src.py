"""The questions of the held-out narrative set, written by hand against
docs/treasure-island.txt (Robert Louis Stevenson, 1883; public domain), each with
its evidence as the text between two anchors: ``start`` (where the evidence
begins, found once in the book) and ``end`` (the first occurrence after
``start``). eval_sets.py locates them and writes questions.jsonl. The
questions ask in their own words what a reader would ask; the answers are short.

Tags: dialogue (the evidence is a character's speech), narration, number (the
answer is an amount, a date, a count or an age).
"""

#: the book, in docs/
BOOK = "treasure-island.txt"
#: evidence is a sentence or two: a longer span is a wrong ``end``
LONGEST = 400
TAGS = {"dialogue", "narration", "number"}

Q = dict

QUESTIONS = [
    # -- Part one: the Admiral Benbow --------------------------------------------------
    Q(question="What did the old captain pay Jim to watch out for a sailor with one leg?",
      start="promised me a silver fourpenny on the first of every month",
      end="seafaring man with one leg”", answer="a silver fourpenny every month",
      tags=["narration", "number"]),
    Q(question="Besides being a doctor, what authority did Dr. Livesey say he held over "
               "the captain?",
      start="I’m not a doctor only; I’m a magistrate;",
      end="I’ll take effectual means to have you hunted down and routed",
      answer="he is a magistrate", tags=["dialogue"]),
    Q(question="What was odd about the hand of the pale stranger who came asking for Bill?",
      start="was a pale, tallowy creature, wanting two fingers of the left hand",
      end="wanting two fingers of the left hand", answer="two fingers of his left hand "
      "were missing", tags=["narration", "number"]),
    Q(question="What message was written on the black spot found beside the dead captain?",
      start="this short message: “You", end="have till ten tonight.”",
      answer="You have till ten tonight", tags=["narration", "number"]),
    Q(question="What was in the captain's sea-chest under his unworn suit of clothes?",
      start="the miscellany began--a quadrant", end="curious West Indian shells.",
      answer="a quadrant, a canikin, tobacco, pistols, bar silver, a Spanish watch, "
      "compasses and shells", tags=["narration"]),
    Q(question="How many years did Billy Bones's account book cover, and how was its "
               "total labelled?",
      start="The record lasted over nearly twenty years", end="“Bones, his pile.”",
      answer="nearly twenty years; \"Bones, his pile\"", tags=["narration", "number"]),
    Q(question="Whom did the doctor name as the one man he was afraid of for the voyage, "
               "and why?",
      start="“You,” replied the doctor; “for you cannot hold your tongue.",
      end="the only men who know of this paper.",
      answer="the squire, because he cannot hold his tongue", tags=["dialogue"]),
    Q(question="What did the squire announce he would do straight after the map was read?",
      start="Tomorrow I start for Bristol. In three weeks’ time",
      end="Hawkins shall come as cabin-boy.",
      answer="leave for Bristol and get a ship and crew, with Hawkins as cabin-boy",
      tags=["dialogue"]),
    # -- Part two: the sea cook ----------------------------------------------------------
    Q(question="According to the squire's letter, how had the new ship's cook lost his leg?",
      start="called, and has lost a leg; but that I regarded as",
      end="under the immortal Hawke.", answer="in his country's service under Admiral Hawke",
      tags=["narration"]),
    Q(question="How did Jim describe Long John Silver when he first saw him at his tavern?",
      start="His left leg was cut off close by the hip,",
      end="hopping about upon it like a bird.",
      answer="left leg off at the hip, a crutch under his left shoulder, hopping like a bird",
      tags=["narration"]),
    Q(question="What three things did Captain Smollett tell the squire he disliked?",
      start="I don’t like this cruise; I don’t like the men; and",
      end="I don’t like my officer.", answer="the cruise, the men and his officer",
      tags=["dialogue"]),
    Q(question="What was the name of Silver's parrot and whom was it named after?",
      start="I calls my parrot Cap’n Flint, after the", end="famous buccaneer",
      answer="Captain Flint, after the famous buccaneer", tags=["dialogue"]),
    Q(question="What post did Silver hold in Flint's crew, and what did the same broadside "
               "cost Pew?",
      start="“No, not I,” said Silver. “Flint was cap’n; I was quartermaster,",
      end="deadlights.", answer="quartermaster; Pew lost his eyes", tags=["dialogue"]),
    Q(question="How old did Silver say he was, and what would he do after this cruise?",
      start="I’m fifty, mark you; once back from this cruise, I set up",
      end="gentleman in earnest.", answer="fifty; set up as a gentleman",
      tags=["dialogue", "number"]),
    Q(question="Who was the Hispaniola's coxswain and what kind of seaman was he?",
      start="coxswain, Israel Hands, was a careful, wily, old, experienced seaman who",
      end="trusted at a pinch with almost anything.",
      answer="Israel Hands, a careful, wily, experienced old seaman", tags=["narration"]),
    Q(question="By when were the ship's party to be back before Blandly sent a ship "
               "after them?",
      start="were not back by the end of August Blandly was to send to find us",
      end="Blandly was to send to find us", answer="the end of August",
      tags=["dialogue", "number"]),
    # -- On the island -------------------------------------------------------------------
    Q(question="How long had Ben Gunn been marooned and what had he lived on?",
      start="“Marooned three years agone,” he continued,", end="berries, and oysters.",
      answer="three years, on goats, berries and oysters", tags=["dialogue", "number"]),
    Q(question="Which food did Ben Gunn say he had dreamed of for many nights?",
      start="many’s the long night I’ve dreamed of cheese", end="toasted, mostly",
      answer="cheese, toasted mostly", tags=["dialogue"]),
    Q(question="How long did Ben Gunn's shipmates hunt for Flint's treasure before they "
               "left him?",
      start="Twelve days they looked for it,", end="all hands went aboard.",
      answer="twelve days", tags=["dialogue", "number"]),
    Q(question="What fence surrounded the log-house of the stockade?",
      start="space, and then the thing was completed by a paling six feet high,",
      end="too open to shelter the besiegers.",
      answer="a paling six feet high without door or opening", tags=["narration", "number"]),
    Q(question="What was Ben Gunn's home-made boat made of?",
      start="lop-sided framework of tough wood, and stretched upon that a covering of",
      end="goat-skin, with the hair inside.",
      answer="a wooden frame covered with goat-skin, hair inside", tags=["narration"]),
    Q(question="How many of the pirates fell in their attack on the stockade?",
      start="three seconds nothing remained of the attacking party but the five who",
      end="one on the outside of the palisade.",
      answer="five: four inside and one outside the palisade", tags=["narration", "number"]),
    Q(question="When the schooner ran aground with Jim and Hands aboard, how far did "
               "she heel over?",
      start="blow, canted over to the port side till the deck stood at an angle",
      end="of forty-five degrees", answer="forty-five degrees to port",
      tags=["narration", "number"]),
    Q(question="What sound reassured Jim when he crept back to the block house at night?",
      start="then it was like music to hear my friends snoring together",
      end="peaceful in their sleep.", answer="his friends snoring", tags=["narration"]),
    Q(question="What did Jim boast to the mutineers that he had done to spoil their plans?",
      start="I was in the apple barrel the night we sighted land,",
      end="it was I who cut her cable",
      answer="he overheard them from the apple barrel and cut the schooner's cable",
      tags=["dialogue"]),
    # -- The treasure --------------------------------------------------------------------
    Q(question="Whose skeleton did Silver think had been laid out to point the way?",
      start="They’re long bones, and the hair’s been yellow.",
      end="You mind Allardyce, Tom Morgan?”", answer="Allardyce's", tags=["dialogue"]),
    Q(question="What did the ghostly voice in the trees call out?",
      start="“Darby M’Graw,” it wailed", end="the rum, Darby!”",
      answer="Darby M'Graw! Fetch aft the rum, Darby!", tags=["dialogue"]),
    Q(question="How much treasure did Silver claim lay close by when the men were "
               "frightened?",
      start="There’s seven hundred thousand pound not a quarter of a",
      end="mile from here.", answer="seven hundred thousand pounds",
      tags=["dialogue", "number"]),
    Q(question="What name was burned into the boards left in the empty treasure pit?",
      start="On one of these boards I saw, branded with a hot iron, the name",
      end="the name of Flint’s ship.", answer="WALRUS, Flint's ship", tags=["narration"]),
    Q(question="What supplies were left for the three mutineers marooned on the island?",
      start="We left a good stock of powder and shot, the bulk",
      end="a handsome present of tobacco.",
      answer="powder and shot, salt goat, medicines, tools, clothing, a sail, rope and "
      "tobacco", tags=["narration"]),
    Q(question="How long did Ben Gunn's thousand pounds last him?",
      start="As for Ben Gunn, he got a thousand pounds,",
      end="he was back begging on the twentieth.", answer="nineteen days",
      tags=["narration", "number"]),
    Q(question="What became of Gray after the voyage?",
      start="Gray not only saved his money,", end="father of a family.",
      answer="he studied, became mate and part owner of a ship, married with a family",
      tags=["narration"]),
]
