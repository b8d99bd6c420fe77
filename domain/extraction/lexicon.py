"""The words the offline rules know: what counts as a job, a relative, a pet, a condition, a
verb of liking or of saying. Data, not patterns: each list is ordinary English, written from
general knowledge and tested on sentences of our own; a rule reads a parsed clause and asks
these lists what its words are."""

from __future__ import annotations

from functools import lru_cache


def _words(text: str) -> frozenset[str]:
    return frozenset(w.replace("_", " ") for w in text.split())


words = _words  # for the rules' own small lists


# The head noun of an occupation ("a night nurse", "the IT manager", "a freelance writer").
OCCUPATIONS = _words("""
accountant actor actress administrator advisor adviser agent analyst anesthetist animator architect
archivist artist assistant astronomer athlete attorney auditor author baker banker barber barista
bartender beautician biologist blogger bookkeeper bricklayer broker builder butcher buyer carer
caregiver carpenter cashier caterer ceo cfo cto chef chemist cleaner clerk coach cofounder co-founder
columnist consultant cook coordinator copywriter counselor counsellor courier curator dancer dentist
designer detective developer dietitian director doctor driver economist editor electrician engineer
entrepreneur farmer firefighter fisherman florist founder freelancer gardener geologist graphic
hairdresser handyman historian illustrator influencer inspector instructor intern interpreter investor
janitor journalist judge labourer laborer landscaper lawyer lecturer librarian lifeguard linguist
machinist manager marketer mathematician mechanic midwife miner model musician nanny navigator
negotiator neurologist nurse nutritionist officer optician optometrist painter paralegal paramedic
pastor pediatrician pharmacist philosopher photographer physician physicist physio physiotherapist
pilot planner plumber poet policeman policewoman politician postman priest principal producer
professor programmer psychiatrist psychologist publisher rabbi radiologist realtor receptionist
recruiter reporter researcher retiree sailor salesman saleswoman salesperson scientist sculptor
secretary singer soldier solicitor specialist statistician steward stewardess strategist student
stylist supervisor surgeon surveyor tailor teacher technician therapist trader trainer translator
tutor typist undergrad undergraduate vet veterinarian videographer waiter waitress welder writer
schoolteacher sommelier pharmacologist carpenter roofer tiler plasterer cartographer dispatcher
hygienist sonographer radiographer phlebotomist dietician podiatrist chiropractor osteopath
orthodontist dermatologist cardiologist oncologist obstetrician gynaecologist gynecologist
anaesthetist anesthesiologist psychotherapist audiologist orderly porter carer joiner glazier mason
stonemason decorator locksmith upholsterer blacksmith fitter installer operator foreman forewoman
scaffolder groundskeeper groundsman controller treasurer actuary underwriter adjuster executive
tester coder sysadmin proofreader filmmaker composer conductor drummer guitarist bassist pianist
violinist cellist dj concierge housekeeper babysitter childminder manicurist masseuse masseur
tattooist chauffeur warden ranger postwoman servant rancher zookeeper groomer referee umpire
footballer cricketer jockey ecologist botanist zoologist epidemiologist barrister notary merchandiser
owner vicar chaplain imam headteacher headmaster headmistress dean registrar paramedic attendant
sound_engineer supervisor storekeeper shopkeeper stocker picker packer welder machinist
dev tuner
""")
# Endings only an occupation has ("a hydrologist", "a mortician", "a choreographer"); a known
# occupation with a word before it, written as one, is one too ("a hydrogeologist", "a songwriter",
# "a neurosurgeon") — but not an owner of something ("a homeowner").
_OCCUPATION_ENDINGS = ("ologist", "ician", "grapher")
_NOT_COMPOUNDED = frozenset({"owner", "buyer"})


@lru_cache(maxsize=1)
def _compounded() -> tuple[str, ...]:
    return tuple(w for w in OCCUPATIONS if len(w) >= 5 and w.isalpha() and w not in _NOT_COMPOUNDED)


def an_occupation(lemma: str) -> bool:
    """Whether a noun's lemma names an occupation."""
    word = lemma.lower()
    if word in OCCUPATIONS:
        return True
    if not word.isalpha() or len(word) < 7:
        return False
    if word.endswith(_OCCUPATION_ENDINGS):
        return True
    return any(word.endswith(job) and len(word) - len(job) >= 3 for job in _compounded())


# How a person stands to someone they name ("my sister Anna"); the single ones fill a slot.
FAMILY = _words("""
wife husband partner girlfriend boyfriend fiance fiancee fiancé fiancée spouse mother mom mum mommy
mummy father dad daddy son daughter sister brother grandmother grandma gran granny nan nana grandfather
grandpa granddad grandad grandson granddaughter grandchild aunt uncle cousin niece nephew stepmother
stepfather stepson stepdaughter stepbrother stepsister mother-in-law father-in-law sister-in-law
brother-in-law twin baby kid child parent grandparent
""")
CLOSE = _words(
    "best_friend boss manager supervisor mentor therapist doctor physio physiotherapist "
    "dentist coach trainer tutor teacher editor agent landlord landlady"
)
# The person's own people named by what they are to them: family, and the close ones of a role.
OWN_PEOPLE = FAMILY | CLOSE
# Names said in passing ("my friend Kemi says ...") are kept only where the person is not just
# the one who said something.
CASUAL = _words(
    "friend mate buddy pal colleague coworker co-worker classmate roommate flatmate "
    "housemate neighbour neighbor teammate bandmate labmate officemate"
)
SINGLE = {
    "wife": "partner",
    "husband": "partner",
    "partner": "partner",
    "girlfriend": "partner",
    "boyfriend": "partner",
    "fiance": "partner",
    "fiancee": "partner",
    "fiancé": "partner",
    "fiancée": "partner",
    "spouse": "partner",
    "boss": "manager",
    "manager": "manager",
}
# The words a parent names their children by ("my boys are 3 and 6", "two kids, Finn and Jo").
CHILDREN = frozenset({"kid", "child", "son", "daughter", "boy", "girl", "twin", "grandchild", "grandkid"})
# Where one lives, said as a kind of home ("moved into a flat in ...", "share a house with ...").
HOMES = frozenset({"flat", "house", "apartment", "home", "place", "room", "studio", "cottage"})
# Those one is a couple with, or was: "separated from my husband", "split up with my ex".
PARTNERS = frozenset(word for word, slot in SINGLE.items() if slot == "partner") | {"ex"}
# Breeds, named as often as the animal ("a beagle called Biscuit"); none that is also a person's
# word (shepherd, boxer, pointer) or a nationality (Persian, Bengal).
DOG_BREEDS = _words("""
labrador lab retriever spaniel terrier beagle collie poodle greyhound whippet dachshund husky
pug bulldog corgi schnauzer staffie staffy rottweiler doberman chihuahua cockapoo labradoodle
cavapoo cavachon springer heeler kelpie vizsla weimaraner lurcher sheepdog westie dalmatian
saluki shiba akita pomeranian samoyed bichon cockerpoo sprocker malamute basenji
goldendoodle bernedoodle shih_tzu jack_russell
""")
CAT_BREEDS = _words("tabby moggy ragdoll siamese sphynx")
BREEDS = DOG_BREEDS | CAT_BREEDS
PETS = {
    "cat": "cat",
    "kitten": "cat",
    "kitty": "cat",
    "dog": "dog",
    "puppy": "dog",
    "pup": "dog",
    "rabbit": "rabbit",
    "bunny": "rabbit",
    "hamster": "hamster",
    "parrot": "parrot",
    "horse": "horse",
    "pony": "horse",
    "mare": "horse",
    "gelding": "horse",
    "stallion": "horse",
    "parakeet": "parakeet",
    "cockatoo": "cockatoo",
    "macaw": "macaw",
    "rat": "rat",
    "bearded_dragon": "bearded dragon",
    "tarantula": "tarantula",
    "tortoise": "tortoise",
    "turtle": "turtle",
    "guinea_pig": "guinea pig",
    "ferret": "ferret",
    "gecko": "gecko",
    "snake": "snake",
    "python": "python",
    "lizard": "lizard",
    "iguana": "iguana",
    "chinchilla": "chinchilla",
    "gerbil": "gerbil",
    "hedgehog": "hedgehog",
    "axolotl": "axolotl",
    "cockatiel": "cockatiel",
    "canary": "canary",
    "budgie": "budgie",
    "goldfish": "goldfish",
    **dict.fromkeys(DOG_BREEDS, "dog"),
    **dict.fromkeys(CAT_BREEDS, "cat"),
}
# Conditions a person has, lives with or was diagnosed with.
CONDITIONS = _words("""
asthma diabetes arthritis anxiety depression adhd add autism dyslexia migraines migraine epilepsy
eczema psoriasis celiac coeliac ibs crohn's insomnia apnea hypertension cancer tinnitus vertigo
endometriosis pcos lupus fibromyalgia allergy allergies intolerance scoliosis sciatica tendinitis
tendonitis gout anemia anaemia hypothyroidism hyperthyroidism ptsd ocd bipolar dementia glaucoma
cataracts osteoporosis arrhythmia hepatitis hiv shingles concussion sinusitis acne rosacea
fibrillation afib a-fib reflux gerd neuropathy colitis diverticulitis angina emphysema copd
parkinson's alzheimer's incontinence gastritis hernia hay_fever hayfever apnoea irregular_heartbeat
heart_murmur
""")
# Complaints that come and go, told as something one keeps getting: "I've been getting headaches".
EPISODES = _words("""
headache headaches nosebleed nosebleeds nightmare nightmares cramp cramps palpitations seizure seizures
flare-up flare-ups flareup flareups dizzy spells fainting spell spells hives rash rashes cold sores
attacks hot flushes flashes chest pains pain pains
""")
# Places one works at without naming them: "I work at a bakery", "I work in a hospital".
WORKPLACES = _words("""
bakery shop business company restaurant cafe café farm store studio clinic practice firm agency salon
bar pub garage startup start-up charity school nursery hotel gallery hospital bank factory warehouse
office supermarket pharmacy chemist library university uni college home lab laboratory plant site
centre center museum airport council ministry hospice surgery prison court church newspaper magazine
publisher brewery vineyard kitchen call_centre dealership gym ward practice station depot
""") - _words("home kitchen site station")
# Fields one works in: "I work in finance", "I work in IT".
FIELDS = _words("""
finance banking tech technology marketing sales hr retail hospitality construction education
healthcare insurance publishing logistics accounting accountancy law advertising media pharma
engineering nursing recruitment consulting software research property journalism fashion admin
accounts payroll procurement
""")
# What the body does, that one can have trouble doing: "I have trouble sleeping".
BODILY = _words("""
sleep breathe swallow concentrate focus walk hear see eat digest remember stand kneel climb chew
""")
# What one has with doing it: "trouble", "difficulty", "problems".
TROUBLE = _words("trouble difficulty difficulties problem problems")
# What a doctor measures: "my blood pressure is high", "I have high cholesterol".
MEASURES = _words("pressure cholesterol sugar glucose a1c iron")
# Adjectives of a lasting condition: "I'm diabetic", "she says I'm anemic".
HEALTH_STATES = _words("""
allergic intolerant lactose-intolerant anemic anaemic diabetic prediabetic pre-diabetic asthmatic
epileptic pregnant deaf blind celiac coeliac autistic dyslexic hypertensive immunocompromised
colorblind insulin-dependent sober impaired
""")
# What a body needs to get about, see or hear: used, they are health, not a liking of a tool.
AIDS = _words("""
wheelchair crutches crutch cane walker rollator scooter stick hearing-aid hearing-aids glasses
lenses contacts pacemaker catheter stoma cpap inhaler
""")
# Verbs of something arranged now for a time ahead: "I've booked a table for Friday".
ARRANGING = _words("book arrange organise organize schedule reserve")
# Injuries: "I broke my wrist", "I tore my ACL".
INJURING = _words("break sprain tear injure hurt pull twist fracture dislocate strain rupture")
# What is done to a body: "I had knee surgery", "my hip replacement is on the 3rd".
PROCEDURES = _words("""
surgery operation replacement transplant biopsy colonoscopy mri scan x-ray ultrasound mammogram
chemo chemotherapy radiotherapy physio physiotherapy vaccination vaccine injection checkup check-up
appointment infusion jab consultation
""")
# What one has for a day: "I've got an appointment on the 19th".
APPOINTMENTS = _words("appointment interview exam test checkup check-up scan consultation session hearing")
# What one takes for one's health: "I'm on metformin", "I take iron supplements".
MEDICINES = _words("""
medication medicine meds pill pills tablet tablets supplement supplements vitamin vitamins insulin
antibiotics antidepressants antihistamine antihistamines inhaler statin statins ibuprofen paracetamol
aspirin metformin levothyroxine thyroxine lisinopril amlodipine omeprazole sertraline fluoxetine
citalopram melatonin iron magnesium prednisone warfarin hrt contraceptive birth-control
allopurinol acetaminophen tylenol advil naproxen codeine tramadol morphine lithium epipen adrenaline
epinephrine ventolin salbutamol albuterol humira ozempic wegovy mounjaro zoloft prozac lexapro xanax
valium ritalin adderall concerta antacid antacids laxative laxatives probiotic probiotics steroid
steroids hydrocortisone cortisone nicotine-patch patches painkiller painkillers beta-blocker
beta-blockers blood-thinner blood-thinners
methylphenidate vyvanse elvanse lisdexamfetamine dexamfetamine colchicine febuxostat
""")
# A child said by sex ("our boy Kofi", "two girls"): the relation it is.
CHILD_BY_SEX = {"boy": "son", "girl": "daughter"}
MEDICINE_ENDINGS = (
    "pril",
    "icam",
    "statin",
    "olol",
    "formin",
    "prazole",
    "cillin",
    "mycin",
    "sartan",
    "oxetine",
    "pine",
    "dronate",
    "tidine",
    "xaban",
    "triptan",
    "izine",
    "tadine",
    "umab",
    "azepam",
    "azolam",
    "floxacin",
    "cycline",
    "parin",
    "gliptin",
    "glutide",
    "olone",
    "asone",
    "butamol",
    "gabalin",
    "pentin",
    "ovir",
)
# Habits a person gives up for their health: "I quit smoking", "I stopped drinking".
GIVEN_UP = _words("""
smoking smoke drinking alcohol booze coffee caffeine sugar vaping cigarettes soda meat vape vapes
snus weed cannabis gambling fags ciggies cigs smokes
""")
# What one eats and drinks, given up or cut down on: "I've cut out sugary drinks".
FOODS = _words("""
drink drinks soda sugar meat dairy gluten bread carbs carbohydrates alcohol wine beer chocolate sweets
snacks caffeine coffee tea salt fat junk takeaway takeaways fries crisps chips
""")
# What money is for, in what a person earns, owes and pays: "I pay 700 in rent".
MONEY_WORDS = _words("""
salary rent debt debts loan loans mortgage savings pension income wage wages paycheck bills bill
card cards credit overdraft tuition fees allowance budget
""")
# How a chat line says it means the opposite ("Oh great, ...", "... /s", "🙄").
SARCASM_OPENERS = (
    ("oh", "great"),
    ("oh", "wonderful"),
    ("oh", "perfect"),
    ("oh", "joy"),
    ("yeah", "right"),
    ("oh", "fantastic"),
    ("just", "great"),
    ("how", "lovely"),
)
SARCASM_MARKS = frozenset({"/s", "🙄", "🙃"})
# Who tells a person what they have: "my doctor says I'm anemic" is a diagnosis, not hearsay.
MEDICS = _words("""
doctor doc gp physician consultant specialist surgeon cardiologist dermatologist neurologist
physio physiotherapist dentist nurse midwife therapist psychiatrist optician oncologist
""")

BODY_PARTS = _words("""
back knee knees hip hips shoulder shoulders ankle ankles wrist wrists neck elbow achilles foot feet
hamstring calf calves heart lungs stomach eyes ears teeth tooth jaw spine wrist arm arms leg legs
toe toes finger fingers thumb ribs rib collarbone acl meniscus rotator_cuff kidney kidneys liver skin
""")
DIETS = _words("vegetarian vegan pescatarian keto paleo kosher halal gluten-free")
# Diets as people say them in chat: "I'm veggie" is vegetarian.
DIET_NAMES = {"veggie": "vegetarian", "vego": "vegetarian", "veg": "vegetarian", "pescetarian": "pescatarian"}
# Where a person stands in life, said with "I'm": "I'm retired", "I'm divorced".
LIFE_STATES = _words("""
retired semi-retired unemployed self-employed freelance married engaged divorced separated widowed single
""")
# Verbs of liking, each with what its memory says.
LIKING = {
    "love": "loves",
    "like": "likes",
    "enjoy": "enjoys",
    "adore": "adores",
    "prefer": "prefers",
    "hate": "hates",
    "dislike": "dislikes",
    "detest": "detests",
    "loathe": "loathes",
}
# Verbs of saying and thinking: a clause under one of them is someone's report or a guess.
REPORTING = _words("""
say tell think believe guess suppose reckon hear claim wonder doubt feel assume imagine suspect
mention insist argue promise swear explain complain suggest fear bet hope wish know realize realise
""")
# Verbs of wanting and planning: their clause is a goal.
WANTING = {
    "want": "wants",
    "plan": "plans",
    "hope": "hopes",
    "intend": "intends",
    "aim": "aims",
    "decide": "decided",
    "try": "is trying",
    "wanna": "wants",
    "need": "needs",
}
# What a person does habitually, in the simple present ("I grow tomatoes", "I play bass").
HABITS = _words("""
grow play write read run swim cycle bike walk cook bake paint draw knit sew climb hike ski surf dance
sing teach study speak practise practice train volunteer commute drive ride collect stream meditate
pray drink eat smoke wear own keep raise coach mentor attend go visit see take follow do spend work
sleep wake go_to listen watch code program fish hunt garden jog lift box row sail skate
""")
# What people take up and keep doing for its own sake: "took up pottery", "started doing yoga".
PASTIMES = _words("""
yoga pilates tennis golf chess climbing bouldering running jogging swimming cycling knitting crochet
pottery painting drawing photography gardening fishing boxing karate judo taekwondo salsa rowing surfing
skiing snowboarding archery fencing badminton squash padel football rugby cricket hockey basketball
volleyball netball dance dancing meditation piano guitar violin cello drums ukulele singing
birdwatching baking woodwork embroidery sewing calligraphy crossfit weightlifting kayaking sailing
""")
TOOLS = _words("use")
# Verbs of a lasting change in one's life, told in the past.
LIFE_EVENTS = _words("""
graduate retire marry divorce adopt emigrate immigrate publish relocate propose resign
""")
# Verbs of an event whose object says what happened ("ran a marathon", "passed the exam").
EVENT_OBJECTS = {
    "buy": _words("house home flat apartment car condo bike boat"),
    "sell": _words("house home flat apartment car business company"),
    "run": _words("marathon half half-marathon 5k 10k 15k race ultra triathlon"),
    "finish": _words(
        "marathon half half-marathon 5k 10k 15k race ultra triathlon degree thesis course "
        "migration dissertation book project training"
    ),
    "complete": _words("marathon half race degree thesis course migration dissertation project training"),
    "pass": _words("exam test driving bar course interview exams tests probation quiz assessment "
                   "audition inspection certification certificate finals"),
    "find": _words("job flat apartment house home place flatshare"),
    "fail": _words("exam test driving bar course exams tests probation assessment audition inspection "
                   "finals theory"),
    "win": frozenset(),
    "launch": frozenset(),
    "open": _words("restaurant shop business store bakery cafe studio clinic practice"),
    "close": _words("round deal sale funding"),
    "quit": frozenset(),
    "book": _words("flight flights trip holiday vacation tickets"),
    "lead": frozenset(),
    "present": _words("poster paper talk thesis research"),
    "start": _words("job business company school university college course degree therapy treatment"),
    "join": frozenset(),
    "get": _words(
        "job promotion degree diploma license licence visa citizenship tattoo puppy dog cat kitten "
        "mortgage scholarship place offer"
    ),
    "have": _words("baby surgery operation"),
    "reach": _words("rank level diamond platinum gold"),
    "hit": _words("diamond platinum gold rank level"),
    "send": _words("v4 v5 v6 v7 v8 project"),
    "sign": _words("lease contract deal"),
    "move": frozenset(),
    "lose": _words("job jobs home house business"),
}
# What a company does, said by one who works there as "we": "we make software for clinics".
COMPANY_VERBS = _words("""
make build sell ship hire raise employ serve base manufacture develop provide offer supply export
import sponsor deliver acquire headquarter
""")
# Words a memory leaves out: how a chat opens, hedges and laughs.
DISCOURSE = _words("""
so also just finally honestly actually basically literally anyway anyways btw well oh ah hey like
um uh hmm yeah yes yep no nah ok okay lol haha hahaha lmao omg ugh wow please pls now then though too
really totally tbh imo imho tho ngl fwiw
""")
CHAT_NOISE = _words("lol haha hahaha lmao omg ugh xd tbh imo imho ngl fwiw btw fr lowkey "
                    "💀 🎉 😂 😅 🙂 😊 ❤️ 👍")
FREQUENCY = _words("""
every each always usually often sometimes daily weekly monthly nightly regularly mostly generally
normally twice weekends weekdays mornings evenings nights mondays tuesdays wednesdays thursdays
fridays saturdays sundays
""")
