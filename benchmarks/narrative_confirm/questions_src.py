"""The questions of the confirming narrative set, written by hand against
docs/pride-and-prejudice.txt (Jane Austen, 1813, in George Allen's 1894 edition
with George Saintsbury's preface; public domain), each with its evidence as the
text between two anchors: ``start`` (where the evidence begins, found once in the
book) and ``end`` (the first occurrence after ``start``). eval_sets.py
locates them and writes questions.jsonl. The questions ask in their own words what
a reader would ask; the answers are short.

Tags: dialogue (the evidence is a character's speech or a letter), narration,
number (the answer is an amount, a sum of money, a count or an age).
"""

#: the book, in docs/
BOOK = "pride-and-prejudice.txt"
#: evidence is a sentence or two: a longer span is a wrong ``end``
LONGEST = 400
TAGS = {"dialogue", "narration", "number"}

Q = dict

QUESTIONS = [
    Q(question="What does the novel's famous opening line say a rich single man must want?",
      start="It is a truth universally acknowledged, that a single man in possession",
      end="must be in want of a wife.", answer="a wife", tags=["narration"]),
    Q(question="After how many years of marriage did Mrs. Bennet still not understand her "
               "husband's character?",
      start="Mr. Bennet was so odd a mixture of quick parts, sarcastic humour,",
      end="insufficient to make his wife understand his character.",
      answer="three-and-twenty years", tags=["narration", "number"]),
    Q(question="What income was Mr. Darcy said to have at the first ball?",
      start="the report, which was in general circulation within five minutes after",
      end="his entrance, of his having ten thousand a year.",
      answer="ten thousand a year", tags=["narration", "number"]),
    Q(question="How did Darcy dismiss Elizabeth when Bingley suggested he dance with her?",
      start="“She is tolerable: but not handsome enough to tempt _me_;",
      end="slighted\nby other men.", answer="tolerable, but not handsome enough to tempt him",
      tags=["dialogue"]),
    Q(question="How old was Charlotte Lucas, Elizabeth's intimate friend?",
      start="of them, a sensible, intelligent young woman, about twenty-seven, was",
      end="Elizabeth’s intimate friend.", answer="about twenty-seven",
      tags=["narration", "number"]),
    Q(question="What was Mr. Bennet's estate worth and to whom would it pass?",
      start="Mr. Bennet’s property consisted almost entirely in an estate of two",
      end="on a distant relation;",
      answer="two thousand a year, entailed on a distant male relation",
      tags=["narration", "number"]),
    Q(question="Why did Mrs. Bennet send Jane to Netherfield on horseback instead of by "
               "carriage?",
      start="“No, my dear, you had better go on horseback, because it seems likely to",
      end="then you must stay all night.”",
      answer="it looked likely to rain, so she would have to stay the night",
      tags=["dialogue"]),
    Q(question="What did Miss Bingley and Mrs. Hurst mock about Elizabeth's appearance "
               "after her walk to Netherfield?",
      start="“Yes, and her petticoat; I hope you saw her petticoat, six inches deep",
      end="hide it not doing its office.”", answer="her petticoat six inches deep in mud",
      tags=["dialogue", "number"]),
    Q(question="How old was Lydia Bennet, and who was she a favourite with?",
      start="Lydia was a stout, well-grown girl of fifteen,",
      end="a favourite with her mother,", answer="fifteen; her mother's favourite",
      tags=["narration", "number"]),
    Q(question="Why were Kitty and Lydia so happy about the news from Meryton that winter?",
      start="with news and happiness by the recent arrival of a militia regiment in",
      end="Meryton was\nthe head-quarters.",
      answer="a militia regiment was quartered there for the winter", tags=["narration"]),
    Q(question="How had Mr. Collins come to be rector of Hunsford?",
      start="A fortunate chance had recommended him to Lady Catherine de",
      end="Bourgh when the living of Hunsford was vacant;",
      answer="Lady Catherine de Bourgh gave him the living", tags=["narration"]),
    Q(question="What did Mr. Collins tell Mrs. Philips one of Lady Catherine's "
               "chimney-pieces had cost?",
      start="that the chimney-piece alone had cost eight hundred pounds,",
      end="the force of the compliment,", answer="eight hundred pounds",
      tags=["narration", "number"]),
    Q(question="What had old Mr. Darcy promised Wickham, according to Wickham?",
      start="“Yes--the late Mr. Darcy bequeathed me the next presentation of the best",
      end="He was my godfather, and excessively attached to me.",
      answer="the next presentation of the best living in his gift", tags=["dialogue"]),
    Q(question="What fortune did Mr. Collins say Elizabeth could expect when he proposed?",
      start="aware that it could not be complied with; and that one thousand pounds",
      end="is all that you may ever be entitled to.",
      answer="one thousand pounds in the 4 per cents., after her mother's death",
      tags=["dialogue", "number"]),
    Q(question="Why did Charlotte Lucas accept Mr. Collins?",
      start="Miss Lucas, who accepted him solely from the pure and",
      end="disinterested desire of an establishment,",
      answer="solely from the wish for an establishment", tags=["narration"]),
    Q(question="What made Miss King suddenly attractive to Wickham?",
      start="The sudden acquisition of ten thousand pounds was the most",
      end="remarkable charm of the young lady",
      answer="she had just come into ten thousand pounds", tags=["narration", "number"]),
    Q(question="How did Darcy begin his first proposal to Elizabeth?",
      start="“In vain have I struggled. It will not do.",
      end="how ardently I admire and love\nyou.”",
      answer="in vain had he struggled; he ardently admired and loved her",
      tags=["dialogue"]),
    Q(question="How much did Wickham accept from Darcy in place of the church living, "
               "according to Darcy's letter?",
      start="He resigned all claim to assistance", end="accepted in return three thousand pounds.",
      answer="three thousand pounds", tags=["dialogue", "number"]),
    Q(question="Where was the regiment to be encamped that summer, to Lydia's delight?",
      start="“They are going to be encamped near Brighton;",
      end="take us all there for the summer!", answer="near Brighton", tags=["dialogue"]),
    Q(question="What did the housekeeper at Pemberley say about Darcy as a master?",
      start="“He is the best landlord, and the best master,” said she, “that ever",
      end="give him a good name.",
      answer="the best landlord and master; every tenant and servant speaks well of him",
      tags=["dialogue"]),
    Q(question="Since what age had the Pemberley housekeeper known Mr. Darcy?",
      start="“I have never had a cross word from him in my life, and I have known him",
      end="ever since he was four years old.”", answer="since he was four years old",
      tags=["dialogue", "number"]),
    Q(question="Where did Lydia write that she was going when she ran away?",
      start="missed. I am going to Gretna Green, and if you cannot guess with",
      end="he is an angel.", answer="Gretna Green", tags=["dialogue"]),
    Q(question="How far did Mr. Bennet say he would not trust Kitty near the sea after "
               "Lydia's elopement?",
      start="“_You_ go to Brighton! I would not trust you so near it as Eastbourne,",
      end="for fifty pounds!", answer="not as near as Eastbourne, for fifty pounds",
      tags=["dialogue", "number"]),
    Q(question="What yearly allowance did Mr. Gardiner's letter ask Mr. Bennet to give "
               "Lydia?",
      start="moreover, to enter into an engagement of allowing her, during your",
      end="life, one hundred pounds per annum.", answer="one hundred pounds a year",
      tags=["dialogue", "number"]),
    Q(question="How much did Mrs. Bennet say Bingley had a year when Jane was engaged?",
      start="talking of? Why, he has four or five thousand a year, and very likely",
      end="more.”", answer="four or five thousand a year, very likely more",
      tags=["dialogue", "number"]),
    Q(question="What promise did Lady Catherine demand of Elizabeth, and what was her "
               "answer?",
      start="“And will you promise me never to enter into such an engagement?”",
      end="“I will make no promise of the kind.”",
      answer="never to become engaged to Darcy; she refused to promise",
      tags=["dialogue"]),
    Q(question="Who had taken Netherfield, according to Mrs. Long's news, and when was "
               "he to move in?",
      start="Mrs. Long says that Netherfield is taken", end="to take possession before Michaelmas,",
      answer="a young man of large fortune from the north of England, before Michaelmas",
      tags=["dialogue"]),
    Q(question="What did Mr. Bennet tell Elizabeth when she refused Mr. Collins?",
      start="“An unhappy alternative is before you, Elizabeth.",
      end="I will never see you again\nif you _do_.”",
      answer="her mother would never see her again if she did not marry him, and he "
      "would never see her again if she did", tags=["dialogue"]),
    Q(question="Who would inherit Rosings, according to Mr. Collins?",
      start="“She has one only daughter, the heiress of Rosings, and of very",
      end="extensive property.”", answer="Lady Catherine's only daughter",
      tags=["dialogue"]),
    Q(question="How old were the Gardiners' daughters who stayed at Longbourn?",
      start="Longbourn. The children, two girls of six and eight years old, and two",
      end="younger boys,", answer="six and eight", tags=["narration", "number"]),
    Q(question="How far was Pemberley from the town where Mrs. Gardiner had once lived?",
      start="within five miles of", end="that Pemberley was situated.",
      answer="within five miles of Lambton", tags=["narration", "number"]),
    Q(question="What did Mr. Collins say of Miss de Bourgh's health?",
      start="She is unfortunately of a sickly", end="constitution,",
      answer="she is of a sickly constitution", tags=["dialogue"]),
]
