"""The questions of the JATS set, written by hand against three eLife papers in
JATS XML (read by the ``xml`` reader): the choanoflagellate sulfonolipid RIF-1
(elife00013), Ire1 and HAC1 mRNA in yeast (elife05031) and kinesin-1 in C. elegans
dendrites (elife00133); three more eLife papers are in the corpus they are asked in.
Each question's evidence is the reader's text exactly (found once). Written by the
session that wrote the reader, before anything was measured on the set: it measures
that reader, it is not held out from it.

Tags: procedure (a method's setting: a concentration, a condition), heading-dependent
(the question names what the section's title says and the evidence does not),
prose.
"""

TAGS = {"procedure", "heading-dependent", "prose"}

Q = dict

RIF = "elife00013.xml"
IRE = "elife05031.xml"
KIN = "elife00133.xml"

QUESTIONS = [
    Q(doc=RIF, question="Which antibiotics were used to make the RCA culture line of "
                        "S. rosetta?",
      evidence=["The Rosette Colonies Absent (RCA) culture line was produced from ATCC50818 by "
                "serial treatment with chloramphenicol (68 μg mL−1), ampicillin (50 μg mL−1), "
                "streptomycin (50 μg mL−1), and erythromycin (50 μg mL−1)"],
      tags=["procedure"]),
    Q(doc=RIF, question="How can rosette colonies be told apart from the other cell types of "
                        "S. rosetta?",
      evidence=["S. rosetta rosette colonies can be distinguished from other cell types in that "
                "they contain clusters of at least four closely associated cells with organized "
                "polarity"], tags=["prose"]),
    Q(doc=RIF, question="How was the pure RIF-1 stock prepared and stored for measuring its "
                        "potency?",
      evidence=["100 ug of pure RIF-1 was solubilized in 100 μL DMSO and this 1 g L−1 stock "
                "was stored at -80°C"], tags=["procedure", "heading-dependent"]),
    Q(doc=RIF, question="What does RCA stand for in the choanoflagellate study?",
      evidence=["This culture line is hereafter referred to as RCA (for ‘Rosette Colonies "
                "Absent’)."], tags=["prose"]),
    Q(doc=RIF, question="Which bacteria induce rosette colony development in S. rosetta?",
      evidence=["rosette colony development is induced by the prey bacterium Algoriphagus "
                "machipongonensis and its close relatives in the Bacteroidetes phylum"],
      tags=["prose"]),
    Q(doc=IRE, question="Which arginines in Ire1's linker does HAC1 mRNA docking need?",
      evidence=["We conclude that three arginine residues, R645, R647, and R650"],
      tags=["prose"]),
    Q(doc=IRE, question="What DTT concentration was used for the splicing reporter assay?",
      evidence=["2 mM DTT for the splicing reporter assay (Pincus et al., 2010)"],
      tags=["procedure"]),
    Q(doc=IRE, question="How much tunicamycin was used in the yeast viability assays?",
      evidence=["0.2 µg ml−1 tunicamycin for viability assays"], tags=["procedure"]),
    Q(doc=IRE, question="Does the clustering of Ire1 into foci need its cytoplasmic domains?",
      evidence=["foci formation does not require participation of Ire1's cytoplasmic domains"],
      tags=["heading-dependent"]),
    Q(doc=IRE, question="Did mutating the conserved lysine of the [+]-box disturb splicing?",
      evidence=["Mutation of no other basic residue, including the single conserved lysine "
                "(K642T), markedly disturbed splicing or growth under ER-stress"],
      tags=["prose"]),
    Q(doc=KIN, question="What were the C. elegans worms fed and at what temperature were they "
                        "raised?",
      evidence=["Worms were raised on NGM plates at 20°C using OP50 Escherichia coli as a food "
                "source."], tags=["procedure"]),
    Q(doc=KIN, question="How were the worms anesthetized for live imaging of microtubule "
                        "dynamics?",
      evidence=["anesthetized with 6 mM levamisol (Sigma) for no longer than 20min"],
      tags=["procedure", "heading-dependent"]),
    Q(doc=KIN, question="At what frame rate were the dynamic imaging videos recorded?",
      evidence=["All videos were acquired over 25 s with 8 frames per second."],
      tags=["heading-dependent"]),
    Q(doc=KIN, question="Which way do EBP-2 comets move in DA9 dendrites compared with axons?",
      evidence=["The majority of the EBP-2::GFP comets in the axon move away from soma, whereas "
                "the majority of comets in the dendrite move toward the soma"], tags=["prose"]),
    Q(doc=KIN, question="Where does the DA9 neuron's axon form its presynaptic "
                        "specializations?",
      evidence=["An axon migrates to the dorsal nerve cord, where it extends anteriorly and "
                "forms presynaptic specializations"], tags=["prose"]),
    Q(doc=KIN, question="Which unc-116 allele has a single L129F mutation in the motor domain?",
      evidence=["TV3706 unc-116 (wy270) III, carrying a single L129 to F mutation in motor "
                "domain"], tags=["prose"]),
]
