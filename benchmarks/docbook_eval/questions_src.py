"""The questions of the DocBook set, written by hand against five pages of the PHP
manual's array functions (DocBook 5 XML, read by the ``xml`` reader): array_filter,
usort, array_splice, array_key_exists and range; the other 83 pages of
``reference/array/functions`` are the corpus they are asked in. Each question's
evidence is the reader's text exactly (found once). Written by the session that
wrote the reader, before anything was measured on the set: it measures that reader,
it is not held out from it.

Tags: procedure (how to do something), table (the evidence is a changelog row),
heading-dependent (the question needs the function's name or a parameter's,
which the evidence does not say), prose, code (the evidence is in an example).
"""

TAGS = {"procedure", "table", "heading-dependent", "prose", "code"}

Q = dict

FILTER = "array-filter.xml"
USORT = "usort.xml"
SPLICE = "array-splice.xml"
KEY = "array-key-exists.xml"
RANGE = "range.xml"

QUESTIONS = [
    Q(doc=FILTER, question="How do I make array_filter pass both the value and the key to "
                           "my callback?",
      evidence=["ARRAY_FILTER_USE_BOTH - pass both value and key as arguments to callback "
                "instead of the value"], tags=["procedure"]),
    Q(doc=FILTER, question="What does array_filter remove when no callback is given?",
      evidence=["If no callback is supplied, all empty entries of array will be removed."],
      tags=["prose"]),
    Q(doc=FILTER, question="Does array_filter keep the array keys?",
      evidence=["Array keys are preserved, and may result in gaps if the array was indexed."],
      tags=["prose"]),
    Q(doc=FILTER, question="In which PHP version did the array_filter callback become "
                           "nullable?",
      evidence=["| 8.0.0 | callback is nullable now. |"], tags=["table", "heading-dependent"]),
    Q(doc=USORT, question="How can I sort an array of people by last name and then first "
                          "name with usort?",
      evidence=["return [$a['last'], $a['first']] <=> [$b['last'], $b['first']];"],
      tags=["code", "procedure"]),
    Q(doc=USORT, question="How do I sort objects with usort using a static method of a "
                          "class as the comparison?",
      evidence=['usort($a, [TestObj::class, "cmp_obj"]);'], tags=["code"]),
    Q(doc=USORT, question="What do $a and $b hold when usort sorts a multi-dimensional "
                          "array?",
      evidence=["When sorting a multi-dimensional array, $a and $b contain references to the "
                "first index of the array."], tags=["prose"]),
    Q(doc=SPLICE, question="How do I remove everything from an offset to the end of an array "
                           "while also inserting a replacement with array_splice?",
      evidence=["To remove everything from offset to the end of the array when replacement "
                "is also specified, use count($input) for length."], tags=["procedure"]),
    Q(doc=SPLICE, question="What happens with a negative length in array_splice?",
      evidence=["If length is specified and is negative, then the end of the removed portion "
                "will be that many elements from the end of the array."],
      tags=["heading-dependent"]),
    Q(doc=SPLICE, question="Are the keys of the replacement array kept by array_splice?",
      evidence=["Keys in the replacement array are not preserved."], tags=["prose"]),
    Q(doc=KEY, question="Why does isset return false for a key whose value is null when "
                        "array_key_exists returns true?",
      evidence=["isset does not return &true; for array keys that correspond to a &null; "
                "value, while array_key_exists does."], tags=["prose"]),
    Q(doc=KEY, question="Does array_key_exists find keys in nested arrays?",
      evidence=["array_key_exists will search for the keys in the first dimension only. "
                "Nested keys in multidimensional arrays will not be found."], tags=["prose"]),
    Q(doc=KEY, question="What should I use instead of passing null as the key to "
                        "array_key_exists?",
      evidence=["| 8.5.0 | Using null in the key parameter is deprecated, use an empty string "
                "instead. |"], tags=["table"]),
    Q(doc=RANGE, question="What error does range throw when the step is zero?",
      evidence=["If step is 0, a ValueError is thrown."], tags=["heading-dependent"]),
    Q(doc=RANGE, question="When does range produce a sequence of floats?",
      evidence=["If at least one of start, end, or step is float the produced array will be a "
                "sequence of float."], tags=["prose"]),
    Q(doc=RANGE, question="What does range produce when both start and end are strings and "
                          "the step is an int?",
      evidence=["If both start and end are strings, and step is int the produced array will "
                "be a sequence of bytes. Otherwise"], tags=["prose"]),
]
