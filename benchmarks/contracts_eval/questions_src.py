"""The questions of the contracts set, written by hand against two of GitHub's terms
in docs/ (Markdown): the Terms of Service (lettered parts, each numbering its
articles from 1) and the GitHub Sponsors Additional Terms (clauses numbered from 1
again under each of its parts: the terms for sponsored developers, for sponsors, and
general terms); the other 16 terms of github/site-policy's ``Policies/github-terms``
are the corpus they are asked in. Each question's evidence is the file's text
exactly (found once).

Tags: heading-dependent (the question names the part or the document the evidence
stands in: a sponsor's invoice against an invoiced user's, the Sponsors terms'
governing law against the other terms'), table (the evidence is a table row),
prose.
"""

TAGS = {"heading-dependent", "table", "prose"}

Q = dict

TOS = "github-terms-of-service.md"
SPONSORS = "github-sponsors-additional-terms.md"

QUESTIONS = [
    Q(doc=TOS, question="How old must I be to have a GitHub account?",
      evidence=["You must be age 13 or older."], tags=["prose"]),
    Q(doc=TOS, question="How many free GitHub accounts may one person keep?",
      evidence=["One person or legal entity may maintain no more than one free Account"],
      tags=["prose"]),
    Q(doc=TOS, question="What is a machine account under GitHub's Terms of Service?",
      evidence=["A machine account is an Account set up by an individual human who accepts "
                "the Terms on behalf of the Account"], tags=["prose"]),
    Q(doc=TOS, question="May I share API tokens to get around GitHub's rate limits?",
      evidence=["You may not share API tokens to exceed GitHub's rate limitations."],
      tags=["prose"]),
    Q(doc=TOS, question="Under GitHub's Terms of Service, within how many days must an "
                        "invoiced user pay the fees?",
      evidence=["User must pay the fees within thirty (30) days of the GitHub invoice date."],
      tags=["heading-dependent"]),
    Q(doc=TOS, question="When does GitHub delete my repositories' content after I cancel my "
                        "account?",
      evidence=["we will delete your full profile and the Content of your repositories within "
                "90 days of cancellation or termination"], tags=["prose"]),
    Q(doc=TOS, question="What happens to content I contributed to other users' repositories "
                        "when my GitHub account is cancelled?",
      evidence=["We will not delete Content that you have contributed to other Users' "
                "repositories or that other Users have forked."], tags=["prose"]),
    Q(doc=TOS, question="Does GitHub offer telephone support?",
      evidence=["We do not offer telephone support."], tags=["prose"]),
    Q(doc=TOS, question="Is an email to GitHub Support a legal notice to GitHub?",
      evidence=["Communications made through email or GitHub Support's messaging system will "
                "not constitute legal notice to GitHub"], tags=["prose"]),
    Q(doc=TOS, question="Are GitHub's Beta Previews covered by the same security measures as "
                        "the rest of the service?",
      evidence=["Beta Previews are not subject to the same security measures and auditing to "
                "which the Service has been and is subject."], tags=["prose"]),
    Q(doc=TOS, question="Does the license I grant GitHub to my content let GitHub sell it?",
      evidence=["This license does not grant GitHub the right to sell Your Content."],
      tags=["prose"]),
    Q(doc=TOS, question="Which provisions of GitHub's Terms of Service survive termination?",
      evidence=["ownership provisions, warranty disclaimers, indemnity, and limitations of "
                "liability"], tags=["prose"]),
    Q(doc=TOS, question="What does the user-generated content section of GitHub's terms cover, "
                        "in short?",
      evidence=["| [D. User-Generated Content](#d-user-generated-content) | You own the content "
                "you post on GitHub."], tags=["table"]),
    Q(doc=SPONSORS, question="As a GitHub Sponsor, within how many days must I pay an invoice?",
      evidence=["Sponsor will pay the Fees set forth in each invoice in full, without deduction "
                "or set-off of any kind, within thirty (30) days of the GitHub invoice date."],
      tags=["heading-dependent"]),
    Q(doc=SPONSORS, question="What service fee does GitHub deduct from a Sponsor's account per "
                             "transaction?",
      evidence=['An additional service fee ("Service Fee") of 3% per transaction will be '
                "deducted from Sponsor's account"], tags=["prose"]),
    Q(doc=SPONSORS, question="How long does a sponsor's agreement under GitHub Sponsors last?",
      evidence=["This Agreement is effective for a period of one year commencing on the "
                "Effective Date"], tags=["heading-dependent"]),
    Q(doc=SPONSORS, question="How much notice must a sponsor give to end the GitHub Sponsors "
                             "agreement?",
      evidence=["If there is no active invoice pending, either party may terminate this "
                "Agreement on thirty (30) days' prior written notice."],
      tags=["heading-dependent"]),
    Q(doc=SPONSORS, question="When are sponsored developers paid by ACH or wire transfer paid "
                             "out?",
      evidence=["If you are paid through ACH transfer or wire transfer, you will receive payouts "
                "on the third Thursday of the month."], tags=["prose"]),
    Q(doc=SPONSORS, question="Up to how much does the GitHub Sponsors Matching Fund match?",
      evidence=["GitHub can match community sponsorship up to $5,000 USD total during the "
                "Sponsored Developer Account's first 12 months in the Program."],
      tags=["prose"]),
    Q(doc=SPONSORS, question="Can someone under 18 receive GitHub Sponsors funds?",
      evidence=["If you are over the age of 13 but are under 18, you can give and receive "
                "Sponsor funds"], tags=["prose"]),
    Q(doc=SPONSORS, question="After a sponsored developer's terms end, when is unpaid money "
                             "remitted?",
      evidence=["After termination, Stripe will process and remit to you via Stripe Connect all "
                "Sponsored Developer Payments received and unpaid within approximately 90 days"],
      tags=["heading-dependent"]),
    Q(doc=SPONSORS, question="Which state's law governs the GitHub Sponsors agreement?",
      evidence=["This Agreement will be governed by and construed in accordance with the laws "
                "of the State of California"], tags=["heading-dependent"]),
]
