"""The questions of the narrative evaluation set, written by hand against
docs/adventures-of-sherlock-holmes.txt (Arthur Conan Doyle, 1892; public domain),
each with its evidence as the text between two anchors: ``start`` (where the
evidence begins) and ``end`` (where it ends, the first occurrence after
``start``). eval_sets.py locates them (``start`` must occur once) and writes
questions.jsonl. The questions ask in their own words what a reader of the stories
would ask; the answers are short.

Tags: dialogue (the evidence is a character's speech), narration, number (the
answer is an amount, a date or a count).
"""

#: the book, in docs/
BOOK = "adventures-of-sherlock-holmes.txt"
#: evidence is a sentence or two: a longer span is a wrong ``end``
LONGEST = 400
TAGS = {"dialogue", "narration", "number"}

Q = dict

QUESTIONS = [
    # -- A Scandal in Bohemia ------------------------------------------------------
    Q(question="Under what false name did the King of Bohemia introduce himself to Holmes?",
      start="“You may address me as the Count Von Kramm", end="a Bohemian nobleman.",
      answer="Count Von Kramm", tags=["dialogue"]),
    Q(question="Where did Irene Adler live in London?",
      start="“Is Briony Lodge, Serpentine Avenue", end="St. John’s Wood.”",
      answer="Briony Lodge, Serpentine Avenue, St. John's Wood", tags=["dialogue"]),
    Q(question="Why would a cry of fire make Irene Adler show where she kept the photograph?",
      start="When a woman thinks that her house is on fire", end="the thing which she values most.",
      answer="a woman whose house is on fire rushes to what she values most",
      tags=["dialogue"]),
    Q(question="How much money did the King leave with Holmes for his expenses?",
      start="“There are three hundred pounds in gold and seven hundred in notes,”",
      end="seven hundred in notes,”", answer="three hundred pounds in gold and seven hundred "
      "in notes", tags=["dialogue", "number"]),
    # -- The Red-Headed League -----------------------------------------------------
    Q(question="What was the weekly pay of a member of the Red-Headed League?",
      start="“‘Is £ 4 a week.’", end="£ 4 a week.’", answer="four pounds a week",
      tags=["dialogue", "number"]),
    Q(question="What task was Jabez Wilson set at the League's office?",
      start="“‘Is to copy out the _Encyclopædia Britannica_.", end="Britannica_.",
      answer="copying out the Encyclopaedia Britannica", tags=["dialogue"]),
    Q(question="What does the inspector say about John Clay's family and schooling?",
      start="His grandfather was a royal duke,", end="Eton and Oxford.",
      answer="his grandfather was a royal duke; he went to Eton and Oxford", tags=["dialogue"]),
    Q(question="What was kept in the bank vault that the thieves were tunnelling towards?",
      start="“It is our French gold,” whispered the director.",
      end="attempt might be made upon it.”", answer="the bank's French gold",
      tags=["dialogue"]),
    # -- A Case of Identity ----------------------------------------------------------
    Q(question="Which flaws of the typewriter gave away the author of the letters?",
      start="not only are the ‘e’s’ slurred and", end="the ‘r’s’ tailless",
      answer="slurred e's and tailless r's", tags=["dialogue"]),
    Q(question="Why did Mary Sutherland's stepfather not want her to marry?",
      start="marriage would mean, of course, the loss of a hundred a year",
      end="keeping her at home", answer="he would lose her hundred a year",
      tags=["dialogue", "number"]),
    # -- The Boscombe Valley Mystery -------------------------------------------------
    Q(question="What call did James McCarthy hear just before he found his father by the pool?",
      start="I heard a cry of", end="a usual signal between my father and myself.",
      answer="Cooee", tags=["dialogue"]),
    Q(question="What name did John Turner go by when he was a bushranger?",
      start="Black Jack of Ballarat was the name I went under,", end="the Ballarat Gang.",
      answer="Black Jack of Ballarat", tags=["dialogue"]),
    Q(question="How many troopers guarded the gold convoy that Turner's gang attacked?",
      start="“One day a gold convoy came down from Ballarat to Melbourne",
      end="There were six troopers and six of us,", answer="six", tags=["dialogue", "number"]),
    # -- The Five Orange Pips --------------------------------------------------------
    Q(question="To whom did Holmes send his own envelope of orange pips, and where?",
      start="addressed it to “Captain James Calhoun,", end="Savannah, Georgia.”",
      answer="Captain James Calhoun, barque Lone Star, Savannah, Georgia",
      tags=["narration"]),
    Q(question="What did Elias Openshaw cry out when he opened the letter with the pips?",
      start="‘K. K. K.!’ he shrieked", end="my sins have overtaken me!’",
      answer="K. K. K.! My God, my sins have overtaken me", tags=["dialogue"]),
    # -- The Man with the Twisted Lip ------------------------------------------------
    Q(question="When did Neville St. Clair come to live at Lee?",
      start="in May, 1884—there came to Lee a", end="Neville St. Clair by name,",
      answer="May 1884", tags=["dialogue", "number"]),
    Q(question="Why did the reporter give up his job for begging?",
      start="you can imagine how hard it was to settle down to arduous work",
      end="sitting still.", answer="he earned in a day begging what reporting paid in "
      "a week", tags=["dialogue", "number"]),
    # -- The Adventure of the Blue Carbuncle -----------------------------------------
    Q(question="Where did the commissionaire's wife find the precious stone?",
      start="“See here, sir! See what my wife found in its crop!”",
      end="scintillating blue stone", answer="in the crop of the goose", tags=["dialogue"]),
    Q(question="Whose jewel was the blue stone?",
      start="“Not the Countess of Morcar’s blue carbuncle!” I ejaculated.",
      end="I ejaculated.", answer="the Countess of Morcar's", tags=["dialogue"]),
    Q(question="How large a reward was advertised for the carbuncle?",
      start="reward offered of £ 1000 is certainly not within a twentieth part of",
      end="the market price.”", answer="1000 pounds", tags=["dialogue", "number"]),
    # -- The Adventure of the Speckled Band ------------------------------------------
    Q(question="What creature killed Dr. Grimesby Roylott?",
      start="“It is a swamp adder!” cried Holmes;", end="deadliest snake in India.",
      answer="a swamp adder", tags=["dialogue"]),
    Q(question="What was strange about the bell-rope in Helen Stoner's bedroom?",
      start="“No, it is not even attached to a wire.", end="opening for the ventilator is.”",
      answer="it was not attached to a wire but to a hook by the ventilator",
      tags=["dialogue"]),
    Q(question="What income could each of the Stoner sisters claim if she married?",
      start="Each daughter can", end="in case of marriage.", answer="250 pounds a year",
      tags=["dialogue", "number"]),
    # -- The Adventure of the Engineer's Thumb ---------------------------------------
    Q(question="What fee did Colonel Stark offer the engineer for the job?",
      start="“‘How would fifty guineas for a night’s work suit you?’", end="he asked.",
      answer="fifty guineas", tags=["dialogue", "number"]),
    Q(question="What machine did the colonel say needed an engineer's advice?",
      start="we erected a hydraulic press.", end="your advice upon the subject.",
      answer="a hydraulic press", tags=["dialogue"]),
    # -- The Adventure of the Noble Bachelor -----------------------------------------
    Q(question="Whom was Lord St. Simon going to marry, according to the newspaper?",
      start="between Lord Robert St. Simon, second", end="of San Francisco, Cal., U.S.A.’",
      answer="Miss Hatty Doran, daughter of Aloysius Doran of San Francisco",
      tags=["dialogue"]),
    Q(question="Who turned out to be the bride's husband already?",
      start="allow me to introduce you to Mr. and Mrs.", end="Francis Hay Moulton.",
      answer="Francis Hay Moulton", tags=["dialogue"]),
    # -- The Adventure of the Beryl Coronet ------------------------------------------
    Q(question="How much did the illustrious client want to borrow against the coronet?",
      start="‘It is absolutely essential to me,’ said he, ‘that I should have £",
      end="50,000 at once.", answer="50,000 pounds", tags=["dialogue", "number"]),
    Q(question="Whose influence kept pulling Arthur Holder back into his bad habits?",
      start="each time the influence of his friend, Sir George Burnwell, was enough",
      end="to draw him back again.", answer="Sir George Burnwell", tags=["dialogue"]),
    # -- The Adventure of the Copper Beeches -----------------------------------------
    Q(question="What odd condition did Mr. Rucastle set for taking the governess post?",
      start="“‘Or to cut your hair quite short before you come to us?’",
      end="before you come to us?’", answer="that she cut her hair short",
      tags=["dialogue"]),
    Q(question="What colour was Violet Hunter's hair?",
      start="hair is somewhat luxuriant, and of a rather peculiar tint of chestnut.",
      end="tint of chestnut.", answer="chestnut", tags=["dialogue"]),
    Q(question="What kind of dog roamed the grounds of the Copper Beeches at night?",
      start="‘It’s only Carlo, my mastiff.", end="Toller lets him loose every night,",
      answer="a mastiff called Carlo", tags=["dialogue"]),
]
