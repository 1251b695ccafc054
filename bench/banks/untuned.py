"""Phrase bank 'untuned', written by an outside writer from dev.py's structure only. Names, topics and wording are
its own (gen.py --check keeps it disjoint from the other banks). Placeholders as in dev: {v}/{old} slot values,
{say}/{Say}, {topic}/{Topic}, thread entities, personal entities, {me}, {n}/{n2}/{big}/{few}, {day}, {due},
{stranger}/{stranger2}/{org}, {act}, {short}, {body}, {todo}."""

NAME = "untuned"

USERS = ["Leyla Arslan", "Kostas Papadakis", "Rasha Haddad", "Navid Rostami", "Defne Yalcin", "Theodora Vlachou",
         "Adel Mansour", "Mina Karimi", "Cem Aksoy", "Irini Galanis", "Khalil Bakri", "Soraya Tehrani",
         "Berk Ozdemir", "Phaedra Lekka", "Munir Saleh", "Ghazal Moradi"]

PEOPLE = ["Karim", "Layla", "Omar", "Rania", "Tariq", "Hala", "Ziad", "Noor", "Bassam", "Salma", "Hamza", "Dalia",
          "Fadi", "Walid", "Yasmin", "Dariush", "Shirin", "Kaveh", "Parisa", "Babak", "Roya", "Arash", "Nasrin",
          "Farhad", "Golnar", "Behrouz", "Mahsa", "Emre", "Elif", "Burak", "Zeynep", "Kerem", "Derya", "Onur",
          "Selin", "Tolga", "Aylin", "Murat", "Ebru", "Nikos", "Eleni", "Yannis", "Katerina", "Stavros", "Despina",
          "Ioanna", "Thanos", "Vasiliki", "Dimitris", "Spyros", "Chrysa"]
STRANGERS = ["Mrs. Antonopoulou", "Dr. Qasimi", "Haluk Erdem", "Fotini Marangou", "Mr. Sabbagh", "Dr. Esfandiari",
             "Orhan Tekin", "Ms. Kazantzi", "Jalal Nasser", "Mrs. Yilmazer", "Prof. Lambrakis", "Ferhat Ocak"]
ORGS = ["Quillfeather Insurance", "Marrowbank Credit Union", "Sablewood Utilities", "Pellucid Dental",
        "Orlan Freightways", "Thimbleworth Library", "Gannet Ridge Council", "Fennimore Telecom", "Ashlar Property Group"]

# thread pools
SHELTERS = ["Paws Harbour Rescue", "Greyline Hound Haven", "Thistledown Animal Shelter", "Marrow Lane Rescue",
            "Second Wag Sanctuary", "Kettlebrook Kennels", "Old Mill Dog Rescue"]
DOGNAMES = ["Zeytin", "Simit", "Loukoumi", "Baklava", "Halva", "Biber", "Fasulye"]
CHOIRS = ["Harbourlight Singers", "Cinderford Community Choir", "Elmbrook Voices", "the Larchmont Chorale",
          "Saltbridge Songbirds"]
HALLS = ["St Brennan's Hall", "Larkspur Chapel", "Quayside Assembly Rooms", "Orrin Street Church Hall",
         "Mosswood Library Auditorium", "Vellamy Community Centre", "the Tollhouse Theatre"]
STUDIOS = ["Kilnhouse Ceramics", "Slip & Glaze", "Ember Clay Co.", "Wheelhouse Pottery"]
ACCOUNTANTS = ["Farrowby & Quist", "Ledgerline Partners", "Mintvale Accounting", "Osterby Tax Services",
               "Cobalt Ledger LLP", "Pennant & Hale"]
LEDGERAPPS = ["Tallybird", "Coinloft", "Ledgerlark", "Sumwise", "Quillbooks", "Abacuspad"]
RECEPTIONS = ["Velvet Orchard Estate", "Myrtle Bay Pavilion", "Carobwood Farmhouse", "The Lemon Press Barn",
              "Ashgrove Conservatory", "Silverpine Terrace"]
CATERERS = ["Saffron & Sumac Kitchen", "Blue Fig Catering", "Pomegranate Table", "Copperpot Feasts",
            "Quince Street Caterers", "Olivegrove Kitchen Co."]
COLOURS = ["dusty sage", "marigold", "midnight teal", "blush terracotta", "lilac grey", "champagne gold"]
JOURNALS = ["Annals of Littoral Science", "Marine Habitat Review", "Estuary Studies Quarterly", "Benthic Letters",
            "Tidewater Ecology", "Journal of Shoreline Biology"]
PAPERTITLES = ["Seagrass Loss and Crab Recruitment", "Salt Marsh Edges Under Pressure", "Mudflat Worms as Sentinels",
               "Oyster Reefs After the Flood", "Kelp Canopy Shading Effects", "Lugworm Burrows and Sediment Oxygen"]
NEWCITIES = ["Port Averly", "Kessingford", "Marlow Cross", "Veradale", "Innisgate", "Halvorsund"]
NEIGHBOURHOODS = ["Brassmarket", "Old Tannery Quarter", "Willowmere", "Saltgate", "Larkhill Rise",
                  "Copperfield Heights", "Ropewalk Yard"]
MOVERS = ["Swiftcrate Movers", "Hollin & Sons Removals", "Parcelbird Moving", "Longhaul Larks",
          "Cartwheel Relocations", "Boxkite Removals"]

# personal pools
HOMETOWNS = ["Thymari", "Zeytinova", "Anthemia", "Kiremitli", "Pelagonia Cove", "Sahilkoy"]
WORKPLACES = ["Tinderbox Freight", "Palladian Analytics", "Marwick Systems", "Orrery Labs"]
CATS = ["Pamuk", "Duman", "Lokum", "Mavi"]

PERSONAL_ENTS = dict(brother="PEOPLE", flatmate="PEOPLE", hometown="HOMETOWNS", workplace="WORKPLACES", cat="CATS")

THREADS = [
    dict(
        name="dog adoption", short=["the adoption", "the new dog", "dog stuff", "the rescue dog"],
        ents=dict(foster="PEOPLE", vet="PEOPLE", walker="PEOPLE"),
        slots=[
            dict(id="shelter", kind="place", pool="SHELTERS", type="decision", topic="the rescue we're adopting from",
                 q=["Which shelter are we adopting the dog from?", "Where's the rescue we're getting the dog from?"],
                 say=["we're adopting through {v}", "the dog is coming to us from {v}", "{v} approved our application",
                      "going with {v} for the adoption, their process felt the most humane",
                      "she's at {v} until we collect her"]),
            dict(id="pickup", kind="date", type="plan", topic="the pickup day",
                 q=["When do we bring the dog home?", "What day is the dog pickup?"],
                 say=["we collect the dog on {v}", "pickup from the rescue is {v}", "{v} is gotcha day!!",
                      "the rescue said we can fetch her on {v}", "she comes home with us {v}"]),
            dict(id="fee", kind="number", num=(95, 450), fmt=["${}", "{} dollars"], type="knowledge",
                 topic="the adoption fee",
                 q=["How much is the adoption fee?", "What are we paying the rescue for the dog?"],
                 say=["the adoption fee is {v}", "the rescue charges {v}, jabs and chip included",
                      "we hand over {v} when we pick her up", "it's {v} to adopt her, which covers the spay"]),
            dict(id="dogname", kind="name", pool="DOGNAMES", type="decision", topic="the dog's name",
                 q=["What are we calling the dog?", "What name did we pick for the new dog?"],
                 say=["we're naming her {v}", "her name's going to be {v}", "{flatmate} and I agreed on {v} for her name",
                      "{v} it is, she even turned her head when we tried it"]),
            dict(id="trainer", kind="name", pool="PEOPLE", type="relationship", topic="the dog trainer",
                 q=["Who is training the dog?", "Who's our dog trainer?"],
                 say=["{v} is running her training sessions", "we signed up with a trainer called {v}",
                      "the obedience classes are with {v}", "{v} will do the recall training with us"]),
        ],
        facts=[("decision", "we went for an older dog, nobody in this house has the energy for a puppy"),
               ("relationship", "{foster} has been fostering her and sends me pictures every single day"),
               ("event", "the home check on {day} went fine, the lady loved the garden"),
               ("knowledge", "she's nervous around men in hats, the rescue warned us about it"),
               ("plan", "for the first week she stays downstairs, baby gate on the stairs"),
               ("preference", "no retractable leads for us, I've heard too many horror stories"),
               ("relationship", "our vet is going to be {vet} at the clinic round the corner"),
               ("identity", "grew up around dogs but this is the first one that's properly mine"),
               ("decision", "she stays on whatever food {foster} uses for the first month, no sudden switches")],
        loops=[dict(acts=["buy a crate and a proper bed for her", "pick up a crate and a bed for the dog"],
                    opens=["the crate situation is still unsolved and that one's on me"],
                    done=["there's a wire kennel assembled next to the sofa now",
                          "her sleeping corner is ready, kennel plus a fluffy mat"]),
               dict(acts=["register her with {vet}'s clinic", "get the dog signed up at the vet"],
                    done=["{vet}'s practice has her on file, first checkup pencilled in",
                          "she's on the clinic's books as of this afternoon"]),
               dict(acts=["dog-proof the back fence", "patch the gap under the garden fence"],
                    opens=["that hole under the back fence has to be sorted before she arrives, no excuses"],
                    done=["the yard is sealed up, {brother} nailed boards over the low bit",
                          "nothing bigger than a hedgehog could squeeze out of the garden now"]),
               dict(acts=["ask {walker} about midday walks", "find someone to walk her at lunchtime"],
                    done=["{walker} said yes to Tuesdays and Thursdays",
                          "lunchtime outings are covered from next week, {walker} is in"])],
        asks=[("how long does it usually take a rescue dog to settle in?",
               "People often talk about three days to decompress, three weeks to learn the routine and three months "
               "to feel at home. Keep things quiet and predictable at first."),
              ("should she sleep in the bedroom or downstairs?",
               "Either can work. What matters most is being consistent; a crate near you for the first nights can "
               "ease the anxiety, and you can move it gradually later."),
              ("i keep refreshing the rescue's instagram like a lunatic",
               "Very relatable. The waiting is the worst part - maybe channel it into a shopping list for her first week?")],
        maybe=["if she turns out to hate {cat} we'll have a real problem, but let's not borrow trouble",
               "sometimes I wonder whether a pair of dogs would actually be less work than one",
               "did the rescue ever say how old she is exactly? I can't remember"],
    ),
    dict(
        name="choir concert", short=["the concert", "choir stuff", "the {choir} concert", "concert prep"],
        ents=dict(choir="CHOIRS", director="PEOPLE", pianist="PEOPLE", treasurer="PEOPLE"),
        slots=[
            dict(id="concert_date", kind="date", type="event", topic="the concert date",
                 q=["When is the {choir} concert?", "What date are we performing?"],
                 say=["the concert is on {v}", "we perform on {v}", "{choir} is singing on {v}",
                      "concert night is {v}, put it in your head", "our big night falls on {v}"]),
            dict(id="hall", kind="place", pool="HALLS", type="plan", topic="the concert venue",
                 q=["Where is the concert being held?", "Which hall are we singing in?"],
                 say=["we're singing at {v}", "the concert's at {v} this time", "{v} is hosting us",
                      "{director} got us into {v} for the performance"]),
            dict(id="ticket", kind="number", num=(10, 35), fmt=["${}", "{} dollars"], type="decision",
                 topic="the ticket price",
                 q=["How much are the concert tickets?", "What are we charging per ticket?"],
                 say=["tickets are {v}", "we settled on {v} per seat", "charging {v} at the door",
                      "the committee went with {v}, kids free"]),
            dict(id="singers", kind="number", num=(18, 64), fmt=["{} singers", "{} voices"], type="knowledge",
                 topic="the number of singers",
                 q=["How many singers are in the concert?", "How many voices do we have for the concert?"],
                 say=["we've got {v} for the concert", "{v} signed up to perform", "the lineup is {v} strong",
                      "attendance sheet says {v} are committed"]),
            dict(id="soloist", kind="name", pool="PEOPLE", type="relationship", topic="the soloist",
                 q=["Who's singing the solo?", "Who did {director} pick as soloist?"],
                 say=["{v} is taking the solo", "{director} picked {v} for the solo",
                      "the soprano solo goes to {v}", "{v} gets the solo verse, well deserved"]),
        ],
        facts=[("relationship", "{director} has led {choir} for ages and knows everyone's quirks"),
               ("decision", "no costumes, just black tops and a coloured scarf each"),
               ("event", "the sopranos finally nailed the descant at rehearsal on {day}"),
               ("knowledge", "the hall piano drifts flat unless somebody tunes it"),
               ("plan", "there'll be a bucket collection for the food bank after the last song"),
               ("identity", "I sing alto, have done since school"),
               ("preference", "I'd rather stand in the back row, I'm tall and hate being up front"),
               ("relationship", "{treasurer} handles the choir money, thank god it's not me")],
        loops=[dict(acts=["design the concert programme", "put the printed programme together"],
                    done=["a box of booklets is sitting in my hallway, fresh from the printers",
                          "the running sheets for the audience look lovely, printing went fine"]),
               dict(acts=["get the piano tuned before the dress rehearsal", "book a tuner for the hall piano"],
                    opens=["someone has to deal with the piano tuning and apparently that someone is me"],
                    done=["the tuner came by, the keys sound right again",
                          "{pianist} says the instrument is finally in pitch"]),
               dict(acts=["send the setlist to {pianist}", "email {pianist} the final running order"],
                    done=["{pianist} got the list of songs and replied with a thumbs up",
                          "{pianist} has every piece in sequence now"]),
               dict(acts=["chase {treasurer} about the hall deposit", "check that {treasurer} paid the hall deposit"],
                    opens=["need {treasurer} to confirm the hall money went through, I keep forgetting to ask"],
                    done=["the venue emailed a receipt, we're paid up",
                          "{treasurer} transferred the booking money on {day}"])],
        asks=[("how do I keep altos from drifting sharp on the high bits?",
               "Have them think of the note as slightly lower and lighter, keep the breath steady rather than "
               "pushing, and practise the passage softly before singing it full voice."),
              ("what's a sensible warm-up for a choir of mixed ages?",
               "Some gentle stretching, humming and lip trills, a few sirens across the range, then scales on simple "
               "vowels. A quarter of an hour is plenty."),
              ("herding a room full of adults who all have opinions is exhausting",
               "It really is. A clear agenda at each rehearsal and one person making final calls saves a lot of energy.")],
        maybe=["if we had a proper orchestra it would sound amazing, but who's paying for that",
               "I wonder whether we should've picked a summer date instead, too late now",
               "what was the name of that carol we did the year it snowed?"],
    ),
    dict(
        name="studio tax return", short=["the taxes", "tax stuff", "the {studio} return", "the tax return"],
        ents=dict(studio="STUDIOS", bookkeeper="PEOPLE", cofounder="PEOPLE"),
        slots=[
            dict(id="tax_deadline", kind="date", type="plan", topic="the filing deadline",
                 q=["When is the {studio} tax return due?", "What's the filing deadline this year?"],
                 say=["the return is due {v}", "we have to file by {v}", "filing deadline: {v}",
                      "the accountant wants everything submitted by {v}", "hard stop for the return is {v}"]),
            dict(id="accountant", kind="name", pool="ACCOUNTANTS", type="decision", topic="our accountant",
                 q=["Which accounting firm is doing our taxes?", "Who's our accountant for the return?"],
                 say=["{v} is handling the return this year", "we hired {v} to file for us",
                      "our accountants are {v}", "{cofounder} found us {v}, they do lots of small makers"]),
            dict(id="revenue", kind="number", num=(38, 140), fmt=["${}k", "${},000"], type="knowledge",
                 topic="last year's revenue",
                 q=["What was {studio}'s revenue last year?", "How much did the studio bring in last year?"],
                 say=["we did {v} in sales last year", "revenue came to {v}", "{studio} turned over {v}",
                      "gross takings for the year were {v}"]),
            dict(id="tax_owed", kind="number", num=(1200, 9800), fmt=["${:,}", "about ${:,}", "${}"],
                 type="knowledge", topic="the estimated tax bill",
                 q=["How much tax do we expect to owe?", "What's the estimated tax bill?"],
                 say=["we'll owe roughly {v}", "the estimate for the tax bill is {v}",
                      "looks like {v} due to the tax office", "{bookkeeper} reckons we'll be paying {v}"]),
            dict(id="books_app", kind="thing", pool="LEDGERAPPS", type="preference", topic="the bookkeeping app",
                 q=["What bookkeeping software are we using?", "Which app has our books?"],
                 say=["the books live in {v}", "we switched the bookkeeping over to {v}",
                      "we're tracking expenses in {v}", "{bookkeeper} set us up on {v}"]),
        ],
        facts=[("decision", "we're claiming the new kiln as equipment, not as a repair"),
               ("relationship", "{bookkeeper} does our books a couple of days a month"),
               ("knowledge", "craft fair income counts as business revenue, even the cash sales"),
               ("event", "got a letter from the tax office on {day}, just a reminder thankfully"),
               ("plan", "from now on receipts get scanned every Sunday evening"),
               ("preference", "I want a seperate business account, mixing the money is a nightmare"),
               ("relationship", "{cofounder} and I split {studio} half and half"),
               ("identity", "the studio is a side business, I've still got my day job")],
        loops=[dict(acts=["dig out all the clay supplier invoices", "collect the supplier receipts for the year"],
                    opens=["half the supplier paperwork is still in a shoebox somewhere, I need to deal with that"],
                    done=["every bill from the clay people is scanned and filed",
                          "found the missing glaze orders, it's all in one folder now"]),
               dict(acts=["send the mileage log to {bookkeeper}", "get my mileage spreadsheet over to {bookkeeper}"],
                    done=["{bookkeeper} has the driving records", "{bookkeeper} confirmed the car logs arrived"]),
               dict(acts=["sign the engagement letter from the accountant", "get the accountant's engagement letter signed"],
                    opens=["the accountant is waiting on my signature before they'll start"],
                    done=["the contract with the tax people is countersigned and back with them",
                          "paperwork for the firm is inked and returned"]),
               dict(acts=["move the tax money into a savings pot", "set money aside for the tax bill"],
                    done=["there's a separate pot with the taxman's cash sitting in it",
                          "transferred a chunk to the rainy-day account so the bill is covered"])],
        asks=[("can I deduct the part of my flat I use for glazing?",
               "Often you can claim a proportion of household costs for space used only for the business; the rules "
               "vary, so it's worth confirming the method with your accountant."),
              ("how long should a tiny business keep old receipts?",
               "A common rule of thumb is five to seven years, depending on where you file. Scanned copies are "
               "usually accepted if they're legible."),
              ("tax season makes me want to throw every pot I own", "Understandable! Breaking it into one folder a "
               "night makes it much less overwhelming.")],
        maybe=["if we ever sold online properly the books would get way more complicated",
               "in theory I could do the return myself, in practice absolutely not",
               "is it just me or are tax forms written to be misread?"],
    ),
    dict(
        name="sister's wedding", short=["the wedding", "{bride}'s wedding", "wedding stuff", "wedding planning"],
        ents=dict(bride="PEOPLE", groom="PEOPLE", planner="PEOPLE", aunt="PEOPLE"),
        slots=[
            dict(id="wedding_date", kind="date", type="event", topic="the wedding date",
                 q=["When is {bride}'s wedding?", "What date is the wedding?"],
                 say=["{bride} and {groom} are getting married on {v}", "the wedding is {v}",
                      "they set the date for {v}", "{bride} texted the family: {v} is the day"]),
            dict(id="reception", kind="place", pool="RECEPTIONS", type="plan", topic="the reception venue",
                 q=["Where's the wedding reception?", "Which venue is the reception at?"],
                 say=["the reception's at {v}", "they booked {v} for the party afterwards",
                      "{v} is where the reception will be", "dinner and dancing will happen at {v}"]),
            dict(id="guests", kind="number", num=(60, 220), fmt=["{} guests", "{} people"], type="knowledge",
                 topic="the guest count",
                 q=["How many guests are coming to the wedding?", "What's the wedding headcount?"],
                 say=["the guest list is at {v}", "they're expecting {v}", "{v} have said yes so far",
                      "the seating plan has to fit {v}"]),
            dict(id="caterer", kind="name", pool="CATERERS", type="decision", topic="the caterer",
                 q=["Who's catering the wedding?", "Which caterer did they choose?"],
                 say=["{v} is doing the food", "they went with {v} for catering", "catering is {v}",
                      "the menu's coming from {v}, the tasting was incredible"]),
            dict(id="dress_colour", kind="thing", pool="COLOURS", type="preference", topic="the wedding party colour",
                 q=["What colour is the wedding party wearing?", "What colour are the attendants' outfits?"],
                 say=["the wedding party is wearing {v}", "{bride} chose {v} for all of us",
                      "our outfits will be {v}", "colour scheme for the attendants: {v}"]),
        ],
        facts=[("relationship", "I'm in the wedding party, so I get roped into basically everything"),
               ("relationship", "{planner} is their planner, very calm, very expensive"),
               ("decision", "no kids at the reception, {bride} was firm about that"),
               ("event", "we went outfit shopping on {day} and {bride} cried in the third shop"),
               ("knowledge", "{groom}'s family is enormous, they're like half the guest list"),
               ("plan", "the weekend before will be low-key, a cabin and board games"),
               ("preference", "I refuse to do a choreographed dance, I told {bride} already"),
               ("relationship", "{aunt} is flying in from abroad for it, first visit in years")],
        loops=[dict(acts=["write my toast for the reception", "draft the speech for the wedding"],
                    opens=["my toast is still a blank page, I gotta get on it"],
                    done=["the speech is written and comes in under five minutes",
                          "read my words to {flatmate} and got laughs in the right places"]),
               dict(acts=["book a hotel room for {aunt}", "find somewhere for {aunt} to stay"],
                    done=["{aunt} has a reservation for three nights near the venue",
                          "{aunt}'s accomodation is confirmed"]),
               dict(acts=["order the gift from their registry", "buy something off the wedding registry"],
                    done=["the stand mixer is on its way to {bride}'s place",
                          "present paid for, shipping straight to the couple"]),
               dict(acts=["get the pre-wedding weekend organised", "sort out the cabin weekend before the wedding"],
                    opens=["nobody has booked the cabin for the weekend before, I said I would"],
                    done=["the lodge is reserved and everyone's paid me back",
                          "we've got a place by the lake for the hen do, deposit paid"])],
        asks=[("how long should a sibling's toast be?",
               "Three to five minutes is the sweet spot: one story that shows who they are, a line about their "
               "partner, and a warm toast at the end."),
              ("is it rude to ask guests to RSVP by text?",
               "Not these days, especially for a relaxed crowd. Just make the deadline and the number clear."),
              ("my family group chat has been unbearable since the engagement",
               "Muting it for a few hours a day is self-care, not rudeness.")],
        maybe=["if they'd eloped we'd all have saved a fortune, just saying",
               "I kind of wonder what my own wedding would look like, not that there's one coming",
               "do people still do the garter thing or is that over?"],
    ),
    dict(
        name="paper submission", short=["the paper", "the manuscript", "submission stuff", "the estuary paper"],
        ents=dict(supervisor="PEOPLE", labmate="PEOPLE"),
        slots=[
            dict(id="journal", kind="name", pool="JOURNALS", type="decision", topic="the target journal",
                 q=["Which journal are we submitting to?", "Where are we sending the paper?"],
                 say=["we're aiming for {v}", "the paper is going to {v}", "{supervisor} wants to try {v} first",
                      "first choice of journal is {v}"]),
            dict(id="paper_deadline", kind="date", type="plan", topic="the submission deadline",
                 q=["When is the paper due?", "What's the deadline for submitting the manuscript?"],
                 say=["the special issue closes {v}", "we need to submit by {v}",
                      "{v} is our internal deadline for the manuscript", "portal shuts on {v}"]),
            dict(id="word_limit", kind="number", num=(3500, 9000), fmt=["{:,} words", "{} words"], type="knowledge",
                 topic="the word limit",
                 q=["What's the word limit for the paper?", "How long can the manuscript be?"],
                 say=["the limit is {v}", "we have to stay under {v}", "they allow {v} including references",
                      "max length is {v}, and we're over"]),
            dict(id="stats", kind="name", pool="PEOPLE", type="relationship", topic="the stats person",
                 q=["Who is running the statistics for the paper?", "Who's handling the stats?"],
                 say=["{v} is handling the stats", "{v} agreed to redo the analysis",
                      "the mixed models are {v}'s job", "stats are with {v} now"]),
            dict(id="paper_title", kind="thing", pool="PAPERTITLES", type="decision", topic="the working title",
                 q=["What's the paper called?", "What's the working title of the manuscript?"],
                 say=["working title is \"{v}\"", "we're calling it \"{v}\"", "the title is \"{v}\" for now"]),
        ],
        facts=[("relationship", "{supervisor} is last author and gets the final say"),
               ("decision", "we cut the third experiment, it muddied the story"),
               ("event", "the preprint got {n} downloads in its first week"),
               ("knowledge", "that journal usually takes about {few} months for a first decision"),
               ("preference", "I write best early in the morning, before the emails start"),
               ("plan", "we'll post the preprint on the same day we submit"),
               ("relationship", "{labmate} made the map figure and it's gorgeous"),
               ("identity", "this is my first paper as lead author")],
        loops=[dict(acts=["fix the figure palette so it's colourblind-safe", "redo the colours on the big figure"],
                    done=["{labmate} ran the plots through a simulator and every panel reads fine now",
                          "new palette is in, viridis all the way"]),
               dict(acts=["write the cover letter", "get a cover letter drafted for the editor"],
                    opens=["the cover letter is mine to write and I keep avoiding it"],
                    done=["a page pitching why the work matters is ready for the editor",
                          "the note to the journal explaining our contribution is finished"]),
               dict(acts=["get {supervisor} to sign off on the discussion section", "ask {supervisor} to okay the discussion"],
                    done=["{supervisor} read the last section and is happy with it, two tiny edits",
                          "got the green light from {supervisor} on that part"]),
               dict(acts=["upload the data to a public repository", "deposit the dataset somewhere open"],
                    done=["the dataset has a DOI now", "our files are public on the archive, link's in the methods"])],
        asks=[("what goes in a good cover letter to an editor?",
               "A short paragraph on the question and main finding, why it fits the journal's readers, a line "
               "confirming it's not under review elsewhere, and suggested reviewers if they ask for them."),
              ("how do I cut words without gutting the argument?",
               "Trim the introduction first, move methods detail to the supplement, and hunt for sentences that "
               "restate a figure rather than interpret it."),
              ("reviewer two is going to hate this, I can feel it",
               "Maybe, but you can pre-empt the obvious objections in the discussion. Want to list the likely ones?")],
        maybe=["if we'd started writing in autumn we wouldn't be scrambling like this",
               "someday I'd love to publish something my mum can actually read",
               "which journal was it that lost our manuscript for a month last time?"],
    ),
    dict(
        name="city move", short=["the move", "moving stuff", "the {newcity} move", "the relocation"],
        ents=dict(newcity="NEWCITIES", landlord="PEOPLE", colleague="PEOPLE"),
        slots=[
            dict(id="moving_day", kind="date", type="plan", topic="moving day",
                 q=["When am I moving?", "What day do the movers come?"],
                 say=["moving day is {v}", "we load the van on {v}", "I'm officially out of here on {v}",
                      "the truck's booked for {v}"]),
            dict(id="neighbourhood", kind="place", pool="NEIGHBOURHOODS", type="decision", topic="the new neighbourhood",
                 q=["Which neighbourhood am I moving to in {newcity}?", "Where in {newcity} is the new flat?"],
                 say=["the new flat is in {v}", "I'm going to live in {v}", "we found a place over in {v}",
                      "it's a top-floor place in {v}, great light"]),
            dict(id="rent", kind="number", num=(1100, 2900), fmt=["${:,} a month", "${} per month", "${:,}"],
                 type="decision", topic="the new rent",
                 q=["What's the rent on the new place?", "How much is the monthly rent in {newcity}?"],
                 say=["rent is {v}", "the new place costs {v}", "I signed for {v}", "{landlord} agreed to {v} for the flat"]),
            dict(id="movers", kind="name", pool="MOVERS", type="decision", topic="the moving company",
                 q=["Which movers did I book?", "Who's doing the move?"],
                 say=["{v} is doing the move", "booked {v} for the heavy lifting", "the removal firm is {v}",
                      "{v} gave the best quote, so they're hired"]),
            dict(id="boxes", kind="number", num=(24, 95), fmt=["{} boxes", "{} cartons"], type="knowledge",
                 topic="the box count", q=["How many boxes am I moving?", "How many boxes are packed for the move?"],
                 say=["I've packed {v} so far", "the quote is based on {v}", "we're at {v} in total",
                      "count as of tonight: {v}"]),
        ],
        facts=[("decision", "selling the sofa instead of moving it, it won't fit up the new stairs"),
               ("relationship", "{colleague} from the new office offered to show me around {newcity}"),
               ("event", "did the video viewing on {day} and signed the same evening"),
               ("knowledge", "parking permits in {newcity} take ages, you need proof of address first"),
               ("plan", "I'll drive up myself with the plants, the movers won't take them"),
               ("preference", "I want to be walking distance from a market, not a mall"),
               ("relationship", "{landlord} is the new landlord, seems reasonable so far"),
               ("identity", "never lived outside {hometown} before, so this is a big deal for me")],
        loops=[dict(acts=["give notice on my current flat", "tell the old landlord I'm leaving"],
                    opens=["haven't handed in my notice on the flat yet, gotta do that"],
                    done=["the letting agent confirmed my tenancy ends with the month",
                          "my old lease is officially wrapping up, they acknowledged it"]),
               dict(acts=["set up internet at the new place", "get broadband sorted for {newcity}"],
                    done=["an engineer is coming to install the router the morning after I arrive",
                          "wifi will be live on my first day there"]),
               dict(acts=["redirect my post", "sort out mail forwarding"],
                    done=["letters will follow me to the new address for a year",
                          "the post office forwarding thing is active"]),
               dict(acts=["transfer the deposit to {landlord}", "get {landlord} the deposit"],
                    opens=["still owe {landlord} the bond, that's my job this week"],
                    done=["{landlord} confirmed the money landed", "{landlord} sent a receipt for the bond"])],
        asks=[("what should go in a first-night box when moving?",
               "Bedding, a towel, toilet roll, chargers, a kettle and mugs, basic toiletries, medication, snacks, a "
               "box cutter and a few bin bags."),
              ("is it smarter to hire movers or rent a van and bribe friends?",
               "For a flat with stairs and heavy furniture, movers usually win on time and backs; friends and a van "
               "work well for a small, light move."),
              ("my whole life is in cardboard right now and I hate it",
               "That in-between stage is the worst. It'll feel like home faster than you think once the bed is up.")],
        maybe=["if the job there falls through I've basically moved for nothing, which is a fun thought at 2am",
               "part of me wants to just sell everything and start with a mattress",
               "how did people move before those vacuum storage bags existed?"],
    ),
]

# --- corrections: (cue, frame, value kinds it suits (empty: any), same session / later / any) ---------------
CORRECTIONS = [
    ("explicit", "Correction to what I told you: {say}", (), "any"),
    ("explicit", "Need to correct {topic} - it's {v}, not {old}", (), "any"),
    ("explicit", "correcting myself on {topic}: {v}", (), "any"),
    ("explicit", "Let me correct that, {v} not {old} - I read the wrong line", (), "same"),
    ("explicit", "quick correction, {v} not {old} - my notes were out of date", (), "any"),
    ("actually", "Oh actually {say}", (), "any"),
    ("actually", "hm actually it's {v}, just double checked", (), "same"),
    ("actually", "{Say} actually, not {old}", (), "later"),
    ("misspoke", "I misspoke before, {say}", (), "any"),
    ("misspoke", "Sorry, said that wrong. {Say}", (), "same"),
    ("misspoke", "my bad, I misspoke - {v}, not {old}", (), "same"),
    ("change", "Plan's changed - {say}", (), "later"),
    ("change", "New plan: {say}, so forget {old}", (), "later"),
    ("change", "Things changed over the weekend: {say}", (), "later"),
    ("moved", "{Topic} got bumped to {v}", ("date",), "later"),
    ("moved", "They moved {topic} to {v}, not {old} anymore", ("date", "place"), "later"),
    ("moved", "heads up, {topic} moved from {old} to {v}", ("date", "place"), "later"),
    ("is-now", "{Topic}'s now {v}", (), "later"),
    ("is-now", "so {topic} is {v} now - {old} fell through", (), "later"),
    ("is-now", "{Topic} is officially {v} now", (), "later"),
    ("is-now", "{Topic} is {v} now, not {old} - they changed it on us", (), "later"),
    ("scratch", "Scratch {old}, {say}", (), "any"),
    ("scratch", "scratch my last message, {say}", (), "same"),
    ("scratch", "Scratch that one - {say}", (), "same"),
    ("implicit", "Talked to them again and {say}", (), "later"),
    ("implicit", "Turns out {say}", (), "later"),
    ("implicit", "{Say}, as of this week", (), "later"),
    ("implicit", "Right, so {say}", (), "later"),
    ("implicit", "{Say} - that's final", (), "later"),
    ("updated", "Small update: {say}", (), "later"),
    ("updated", "Updating {topic}: {v} now (was {old})", (), "later"),
    ("updated", "Latest on {topic} - {v}", (), "later"),
]

LOOP_OPEN = ["gotta {act} {due}", "put this on my list: {act}", "nudge me on {day} to {act}",
             "I should really {act}", "{act} - that's mine, {due}", "I'll take a crack at it {due}: {act}",
             "somebody has to {act} and it's going to be me", "I'm on the hook to {act} {due}",
             "making a note so I don't drop it: {act}", "still on my plate: {act}",
             "can you hold me to this? {act} {due}", "I told everyone I'd {act} {due}",
             "must {act} {due}, don't let it slide", "my job this week is to {act}",
             "pls keep in mind I have to {act}", "i'll deal with it {due} - need to {act}",
             "adding to the pile: {act}", "bug me about it if I haven't managed to {act} {due}"]
DUES = ["before Tuesday", "by Wednesday night", "over the weekend", "tonight", "in the next couple of days",
        "before the month is out", "by tommorow afternoon", "sometime this week", "early next week", "asap"]

ACK = ["Okay, I've got that.", "Right, noted down.", "Sure thing.", "Makes total sense.", "Got that, thanks.",
       "Fair enough - anything else on this?", "Understood, thanks for telling me.", "Alright!",
       "Good to know.", "Thanks - shall I do anything with it?"]
ACK_VALUE = ["Okay, {topic} is {v}.", "Noting {v} for {topic}.", "{Topic}: {v}. Got it.", "Right, {v} - I'll keep that."]
ACK_CHANGE = ["Switched {topic} to {v}.", "Okay, {v} replaces {old}.", "Noted - {topic} went from {old} to {v}.",
              "Right, {v} it is now."]
ACK_TODO = ["Okay, that's on your list now.", "I'll keep it on the to-do list.", "Tracking that one for you.",
            "Added - I'll remind you if it comes up."]
ACK_DONE = ["Lovely, that's ticked off.", "Nice one, I'll mark it finished.", "Great, off the list it goes.",
            "Brilliant - that one's closed."]

OPENERS = ["hiya", "morning morning", "hey, me again", "ok back to {short}", "got a sec for {short}?",
           "sorry, another one", "hello! quick q", "ugh what a day", "right, {short}",
           "hey hey, about {short}", "evening!", "picking this back up", "can I brain-dump for a minute?",
           "hi, u around?"]
GREETINGS = ["Hey {me}, go for it.", "Hi {me}! What's happening?", "Here - what do you need?", "Hello! Fire away.",
             "Good to see you, {me}. What's up?", "Hi there, I'm listening."]
CLOSERS = ["that's all for now ty", "ok cheers, bye", "brilliant, thank you", "gtg, talk soon",
           "alright that's me done", "thanks a million"]
GOODBYES = ["Any time, {me}.", "Take care!", "Catch you later.", "Glad that helped.", "Bye - good luck!"]
FILLERS = [("hmm", "Take all the time you need."), ("brb", "Sure, I'll be here."), ("haha", "🙂"),
           ("sorry, doorbell", "No worries."), ("ok cool", "Cool cool."), ("where was i", "We were on {short}."),
           ("ty!", "Any time!"), ("gimme a sec", "Of course.")]
RECAP_ASKS = ["remind me where {short} is at?", "quick summary pls", "what's the state of {short}?",
              "can you give me the tl;dr on {short}?"]
RECAP_TODO = ["Still to do: {todo}", "Open items: {todo}", "Outstanding: {todo}"]
RECAP = ["Where {short} stands: {body}.", "Here's the summary: {body}.", "Current picture - {body}.",
         "Short version: {body}."]
LEADS = ["so re {short}: ", "news on {short} - ", "heads up, ", "quick thing: ", "okay so, ", "fyi "]
LOWER_OK = (r"(?:We|The|Our|Her|She|Tickets|Rent|Revenue|Catering|Moving|Filing|Working|Stats|Pickup|Concert|"
            r"Last|Looks|Gotta|Put|Nudge|Still|Adding|Making|Must|Pls|Can|Bug|Somebody|Someone|Turns|Right|Small|"
            r"Latest|New|Plan's|Things|Scratch|Heads|Oh|Hm|Correcting|Nothing|There's|Every|Found|Got|Read|Present|"
            r"Letters|Wifi|Count|Max|Portal|Hard|Gross|Dinner|Colour|First|Booked|Going|Charging|Attendance)\b")
JOINERS = [" Oh, also ", " Another thing: ", " And btw ", " Separately, "]

PERSONAL = [("identity", "I do logistics planning at {workplace}"),
            ("identity", "grew up in {hometown}, small place, everyone knows your business"),
            ("relationship", "my brother {brother} lives a couple of streets away"),
            ("relationship", "my flatmate {flatmate} is a total night owl, we barely overlap"),
            ("preference", "I don't eat pork, in case food ever comes up"),
            ("preference", "bullet points over paragraphs please, always"),
            ("preference", "no calls before mid-morning if you can help it, I'm useless early"),
            ("relationship", "our cat {cat} runs the flat, we just live here"),
            ("identity", "I'm half Greek half Turkish, which makes holidays interesting"),
            ("event", "{brother} and I did a charity sea swim last month"),
            ("preference", "trying to cut back on caffeine, so don't tempt me")]

CHITCHAT = [("what should I listen to on a long train ride?", "A long audiobook works well, or a whole album front "
             "to back if you want to watch the scenery."),
            ("it's sleeting sideways out there", "Perfect excuse for soup and thick socks."),
            ("i've had way too much tea today lol", "A glass of water and a stretch might even things out."),
            ("need a lazy lunch idea", "Toasted flatbread with hummus, tomatoes and a fried egg - quick, and "
             "barely any washing up."),
            ("recommend a film for a quiet night in?", "Something gentle, like a slow coming-of-age drama, or a "
             "classic heist film if you want a bit of fun."),
            ("why does time speed up in december?", "Mostly because the calendar fills with one-off events, and "
             "busy weeks feel short while you're in them."),
            ("my basil died again, i give up", "Basil is fussy - it wants a warm sunny sill, and a drink only once the "
             "surface of the pot feels dry."),
            ("tell me something I don't know", "Sea otters hold hands while they sleep so they don't drift apart."),
            ("should I go for a swim or just nap", "Swim first; the nap afterwards will feel earned."),
            ("is toast a valid dinner", "Absolutely. Put something on it and it's basically a meal."),
            ("how do people whistle so loud?", "Mostly practice: lips tight, tongue pulled back, and a strong steady "
             "breath. Expect a lot of sad hissing at first."),
            ("the upstairs neighbours are moving furniture at midnight again", "That's rough. Earplugs and a fan "
             "for white noise might rescue your night."),
            ("do you like autumn or spring better?", "No personal favourite, but spring's long evenings get a lot "
             "of love."),
            ("finally answered every email I owed people", "A clean slate! That's a good feeling."),
            ("any tips to keep mint from taking over a planter?", "Give it its own pot - it spreads by runners and "
             "will crowd out anything next to it."),
            ("my laptop fan sounds like a jet engine", "Dust is a common culprit; a can of compressed air through the "
             "vents often helps."),
            ("my back is stiff from the desk chair", "Try standing every half hour, plus a cat-cow stretch and some "
             "shoulder rolls."),
            ("hot take: olives are overrated", "Bold. The olive fans will be writing in."),
            ("I want to read more but I just scroll instead", "Keep a book where your phone usually lives - the "
             "swap is half the battle."),
            ("what's a good thing to do on a grey saturday?", "A long walk to a cafe you've never tried, or a "
             "board game afternoon with friends.")]
REQUESTS = [("can you write a note to {stranger} at {org} saying I'll be {n} minutes late on {day}?",
             "Of course:\n\nHi {stranger},\n\nJust a heads-up that I'll be about {n} minutes late on {day}. "
             "Sorry for the inconvenience.\n\nThanks,\n{me}"),
            ("summarise: '{org} had {big} complaints this year and {stranger} wants {n} new staff on the phones'",
             "{org} logged {big} complaints this year; {stranger} is proposing {n} more phone staff."),
            ("ideas for naming a juice bar owned by {stranger}?",
             "Some options: Press & Pour, {stranger}'s Squeeze, The Pulp Room, Citrus Corner, Green Glass."),
            ("write me a silly haiku about {few} pigeons", "{few} grey pigeons strut / the bench is now their kingdom "
             "/ my sandwich is gone"),
            ("fix the spelling: 'we definately recieved {n} boxes from {org}'",
             "'We definitely received {n} boxes from {org}.' - two fixes: definitely and received."),
            ("help me answer {stranger}, who's asking for ${n} back for a broken mug",
             "Hi {stranger}, sorry to hear the mug arrived broken. I've sent a refund of ${n}; it should show up in "
             "a few days."),
            ("how do you say 'the train leaves from platform {n}' in French?",
             "'Le train part du quai {n}.'"),
            ("make this friendlier: '{stranger}, the invoice for ${big} is overdue'",
             "'Hi {stranger}, hope you're well! Just a quick nudge that the ${big} invoice is now past due.'"),
            ("what should I pack for {few} days of hiking?",
             "Broken-in boots, a rain jacket, a warm mid-layer, {few} pairs of wool socks, a first-aid kit, snacks, "
             "a head torch and a refillable bottle."),
            ("explain inflation in two sentences", "When prices in general go up over time, each unit of money buys "
             "a bit less. A little is normal; a lot erodes savings quickly.")]
DISTRACTORS = ["if I had a free week I'd finally sort the attic, but when does that ever happen",
               "what's the app called that tells you when the bus is coming?",
               "I honestly couldn't tell you how my pension works",
               "I probably ought to stretch more, but who am I kidding",
               "one day I'd like to learn the oud",
               "paid the council tax back in spring, so that's not hanging over me",
               "wouldn't it be great if the washing machine stopped screaming",
               "I could repaint the bathroom this weekend... or lie on the floor",
               "should I be worried that my plant is leaning towards the TV?",
               "renewed my passport years ago, it's good for ages still"]
UNSURE = ["Hmm, I don't think you've mentioned that.", "That hasn't come up between us, I'm afraid.",
          "No idea, sorry - you haven't told me.", "I don't have that one. Want to figure it out together?"]
SHRUG = ["Ha, relatable.", "Fair!", "Honestly, valid.", "I hear you.", "Can't blame you."]
SUGGEST = [("what am I missing?", "Maybe confirm the plan with everyone involved before {day} - a short message "
            "would cover it."),
           ("any thoughts?", "You could sleep on it and decide tomorrow - no need to commit today."),
           ("what's your take?", "If it were me, I'd put aside half an hour on {day} and go through it calmly."),
           ("anything else worth doing?", "A shared checklist might keep things from slipping; I could sketch one "
            "out if that helps.")]
